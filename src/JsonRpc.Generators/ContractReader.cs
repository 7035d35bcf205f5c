using System.Collections.Generic;
using System.Collections.Immutable;
using System.Text;
using System.Threading;
using Microsoft.CodeAnalysis;

namespace JsonRpc.Generators;

/// <summary>Reads a [JsonRpcContract] interface into a <see cref="ContractModel"/>, with a diagnostic for each shape it cannot serve.</summary>
internal static class ContractReader
{
    public const string ContractAttribute = "JsonRpc.Contracts.JsonRpcContractAttribute";
    private const string MethodAttribute = "JsonRpc.Contracts.JsonRpcMethodAttribute";

    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    public static ContractModel Read(INamedTypeSymbol contract, AttributeData attribute, CancellationToken cancellationToken)
    {
        var diagnostics = ImmutableArray.CreateBuilder<DiagnosticInfo>();
        if (contract.IsGenericType)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.GenericContract, contract, contract.Name));
        }

        for (var type = (INamedTypeSymbol?)contract; type is not null; type = type.ContainingType)
        {
            if (type.DeclaredAccessibility is Accessibility.Private or Accessibility.Protected or Accessibility.ProtectedAndInternal)
            {
                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.Inaccessible, contract, contract.Name));
                break;
            }
        }

        string? contextType = null;
        if (attribute.ConstructorArguments.Length == 1 && attribute.ConstructorArguments[0].Value is INamedTypeSymbol context)
        {
            if (IsSerializerContext(context))
            {
                contextType = context.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);
            }
            else
            {
                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.NotASerializerContext, contract, contract.Name, context.ToDisplayString()));
            }
        }

        var methods = ImmutableArray.CreateBuilder<MethodModel>();
        var events = ImmutableArray.CreateBuilder<EventModel>();
        var wireNames = new Dictionary<string, string>();
        var interfaces = new List<INamedTypeSymbol> { contract };
        interfaces.AddRange(contract.AllInterfaces);
        foreach (var declaring in interfaces)
        {
            foreach (var member in declaring.GetMembers())
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (member.IsStatic)
                {
                    continue;
                }

                switch (member)
                {
                    case IMethodSymbol { MethodKind: MethodKind.Ordinary } method:
                        if (ReadMethod(method, declaring, diagnostics) is { } model)
                        {
                            if (wireNames.TryGetValue(model.WireName, out var other))
                            {
                                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.DuplicateWireName, method, method.Name, model.WireName, other));
                            }
                            else
                            {
                                wireNames.Add(model.WireName, method.Name);
                                methods.Add(model);
                            }
                        }

                        break;
                    case IPropertySymbol property:
                        diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedMember, property, property.Name, property.IsIndexer ? "an indexer" : "a property"));
                        break;
                    case IEventSymbol @event:
                        if (ReadEvent(@event, declaring, diagnostics) is { } eventModel)
                        {
                            if (wireNames.TryGetValue(eventModel.WireName, out var other))
                            {
                                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.DuplicateWireName, @event, @event.Name, eventModel.WireName, other));
                            }
                            else
                            {
                                wireNames.Add(eventModel.WireName, @event.Name);
                                events.Add(eventModel);
                            }
                        }

                        break;
                }
            }
        }

        return new ContractModel(
            contract.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat),
            SafeName(contract),
            contextType,
            new EquatableArray<MethodModel>(methods.ToImmutable()),
            new EquatableArray<EventModel>(events.ToImmutable()),
            new EquatableArray<DiagnosticInfo>(diagnostics.ToImmutable()));
    }

    private static MethodModel? ReadMethod(IMethodSymbol method, INamedTypeSymbol declaring, ImmutableArray<DiagnosticInfo>.Builder diagnostics)
    {
        var ok = true;
        if (method.IsGenericMethod)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.GenericMethod, method, method.Name));
            ok = false;
        }

        var (kind, result) = Classify(method.ReturnType);
        if (kind is null)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedReturn, method, method.Name, method.ReturnType.ToDisplayString()));
            ok = false;
        }

        var parameters = ImmutableArray.CreateBuilder<ParamModel>();
        var tokens = 0;
        foreach (var parameter in method.Parameters)
        {
            var type = parameter.Type;
            if (parameter.RefKind != RefKind.None)
            {
                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.RefParameter, parameter, method.Name, parameter.Name));
                ok = false;
                continue;
            }

            if (IsNamed(type, "System.Threading", "CancellationToken", 0))
            {
                if (++tokens > 1)
                {
                    diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedParameter, parameter, method.Name, parameter.Name, "a method takes one CancellationToken at most"));
                    ok = false;
                }

                parameters.Add(new ParamModel(parameter.Name, Display(type), ParamKind.CancellationToken, null));
                continue;
            }

            if (IsNamed(type, "System", "IProgress", 1))
            {
                if (kind == ReturnKind.AsyncEnumerable)
                {
                    diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedParameter, parameter, method.Name, parameter.Name, "IProgress<T> with an IAsyncEnumerable<T> result is not supported"));
                    ok = false;
                }

                var progress = ((INamedTypeSymbol)type).TypeArguments[0];
                parameters.Add(new ParamModel(parameter.Name, Display(type), ParamKind.Progress, Display(progress)));
                continue;
            }

            if (IsNamed(type, "System.Collections.Generic", "IAsyncEnumerable", 1))
            {
                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedParameter, parameter, method.Name, parameter.Name, "IAsyncEnumerable<T> arguments are not supported yet"));
                ok = false;
                continue;
            }

            if (type is IPointerTypeSymbol or IFunctionPointerTypeSymbol || type.IsRefLikeType)
            {
                diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedParameter, parameter, method.Name, parameter.Name, "pointers and ref structs cannot be serialized"));
                ok = false;
                continue;
            }

            parameters.Add(new ParamModel(parameter.Name, Display(type), ParamKind.Value, null));
        }

        if (parameters.Count > 63)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedParameter, method, method.Name, "…", "a method takes 63 parameters at most"));
            ok = false;
        }

        var wireName = WireName(method, method.Name);

        if (WireNameProblem(wireName) is { } problem)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.InvalidWireName, method, method.Name, wireName, problem));
            ok = false;
        }

        return ok
            ? new MethodModel(method.Name, declaring.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), wireName, kind!.Value,
                Display(method.ReturnType), result is null ? null : Display(result), new EquatableArray<ParamModel>(parameters.ToImmutable()))
            : null;
    }

    /// <summary>An EventHandler or EventHandler&lt;T&gt; event: what StreamJsonRpc turns into notifications.</summary>
    private static EventModel? ReadEvent(IEventSymbol @event, INamedTypeSymbol declaring, ImmutableArray<DiagnosticInfo>.Builder diagnostics)
    {
        string? argsType;
        if (IsNamed(@event.Type, "System", "EventHandler", 0))
        {
            argsType = null;
        }
        else if (IsNamed(@event.Type, "System", "EventHandler", 1))
        {
            argsType = Display(((INamedTypeSymbol)@event.Type).TypeArguments[0]);
        }
        else
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.UnsupportedEvent, @event, @event.Name, @event.Type.ToDisplayString()));
            return null;
        }

        var wireName = WireName(@event, @event.Name);
        if (WireNameProblem(wireName) is { } problem)
        {
            diagnostics.Add(DiagnosticInfo.Create(ContractDiagnostics.InvalidWireName, @event, @event.Name, wireName, problem));
            return null;
        }

        return new EventModel(@event.Name, declaring.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), wireName,
            Display(@event.Type), Display(@event.Type.WithNullableAnnotation(NullableAnnotation.NotAnnotated)), argsType);
    }

    /// <summary>The name <c>[JsonRpcMethod("…")]</c> gives, else the member's own.</summary>
    private static string WireName(ISymbol member, string name)
    {
        foreach (var attribute in member.GetAttributes())
        {
            if (attribute.AttributeClass?.ToDisplayString() == MethodAttribute && attribute.ConstructorArguments.Length == 1)
            {
                name = attribute.ConstructorArguments[0].Value as string ?? string.Empty;
            }
        }

        return name;
    }

    private static string? WireNameProblem(string name)
    {
        if (name.Length == 0)
        {
            return "a wire name cannot be empty";
        }

        if (name.StartsWith("$/", System.StringComparison.Ordinal))
        {
            return "names starting with '$/' are reserved for protocol extensions";
        }

        return name.StartsWith("rpc.", System.StringComparison.Ordinal) ? "names starting with 'rpc.' are reserved by JSON-RPC 2.0" : null;
    }

    private static (ReturnKind? Kind, ITypeSymbol? Result) Classify(ITypeSymbol type)
    {
        if (type is not INamedTypeSymbol named)
        {
            return (null, null);
        }

        if (IsNamed(named, "System.Threading.Tasks", "Task", 0))
        {
            return (ReturnKind.Task, null);
        }

        if (IsNamed(named, "System.Threading.Tasks", "ValueTask", 0))
        {
            return (ReturnKind.ValueTask, null);
        }

        if (IsNamed(named, "System.Threading.Tasks", "Task", 1))
        {
            return (ReturnKind.TaskOfT, named.TypeArguments[0]);
        }

        if (IsNamed(named, "System.Threading.Tasks", "ValueTask", 1))
        {
            return (ReturnKind.ValueTaskOfT, named.TypeArguments[0]);
        }

        return IsNamed(named, "System.Collections.Generic", "IAsyncEnumerable", 1)
            ? (ReturnKind.AsyncEnumerable, named.TypeArguments[0])
            : (null, null);
    }

    private static bool IsNamed(ITypeSymbol type, string ns, string name, int arity)
        => type is INamedTypeSymbol named && named.Name == name && named.Arity == arity
            && named.ContainingNamespace?.ToDisplayString() == ns;

    private static bool IsSerializerContext(INamedTypeSymbol type)
    {
        for (var current = type.BaseType; current is not null; current = current.BaseType)
        {
            if (IsNamed(current, "System.Text.Json.Serialization", "JsonSerializerContext", 0))
            {
                return true;
            }
        }

        return false;
    }

    private static string Display(ITypeSymbol type) => type.ToDisplayString(TypeFormat);

    private static string SafeName(INamedTypeSymbol contract)
    {
        var name = contract.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat).Replace("global::", string.Empty);
        var safe = new StringBuilder(name.Length);
        foreach (var c in name)
        {
            safe.Append(char.IsLetterOrDigit(c) ? c : '_');
        }

        return safe.ToString();
    }
}
