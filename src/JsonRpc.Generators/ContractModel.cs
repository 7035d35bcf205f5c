using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace JsonRpc.Generators;

/// <summary>A [JsonRpcContract] interface as the emitter needs it: strings only, compared by value (cache-friendly).</summary>
internal sealed record ContractModel(
    string InterfaceType,
    string SafeName,
    string? ContextType,
    EquatableArray<MethodModel> Methods,
    EquatableArray<EventModel> Events,
    EquatableArray<DiagnosticInfo> Diagnostics);

internal enum ReturnKind
{
    Task,
    TaskOfT,
    ValueTask,
    ValueTaskOfT,
    AsyncEnumerable,
}

internal enum ParamKind
{
    Value,
    CancellationToken,
    Progress,
}

// DeclaringType: the interface that declares it (the contract's or a base), for the explicit implementation.
// ResultType: T of Task<T>, ValueTask<T> or IAsyncEnumerable<T>; null for Task and ValueTask.
internal sealed record MethodModel(
    string Name,
    string DeclaringType,
    string WireName,
    ReturnKind Kind,
    string ReturnType,
    string? ResultType,
    EquatableArray<ParamModel> Params)
{
    public bool HasProgress
    {
        get
        {
            foreach (var p in Params)
            {
                if (p.Kind == ParamKind.Progress)
                {
                    return true;
                }
            }

            return false;
        }
    }

    public bool IsVoid => Kind is ReturnKind.Task or ReturnKind.ValueTask;
}

// An EventHandler or EventHandler<T> event. Type: as declared; HandlerType: without a nullable annotation, for locals;
// ArgsType: the T of EventHandler<T>, null for EventHandler.
internal sealed record EventModel(string Name, string DeclaringType, string WireName, string Type, string HandlerType, string? ArgsType);

// Type: the parameter's type as declared; for progress, ProgressType is the T of IProgress<T>.
internal sealed record ParamModel(string Name, string Type, ParamKind Kind, string? ProgressType);

/// <summary>A diagnostic without symbols or syntax trees, so that the model stays comparable.</summary>
internal sealed record DiagnosticInfo(string Id, string? Path, TextSpan Span, LinePositionSpan LineSpan, EquatableArray<string> Args)
{
    public static DiagnosticInfo Create(DiagnosticDescriptor descriptor, ISymbol symbol, params string[] args)
    {
        var location = symbol.Locations.Length > 0 ? symbol.Locations[0] : Location.None;
        var line = location.GetLineSpan();
        return new DiagnosticInfo(descriptor.Id, location.SourceTree?.FilePath, location.SourceSpan, line.Span,
            new EquatableArray<string>(System.Collections.Immutable.ImmutableArray.Create(args)));
    }

    public Diagnostic ToDiagnostic()
    {
        var location = Path is null ? Location.None : Location.Create(Path, Span, LineSpan);
        var args = new object[Args.Length];
        for (var i = 0; i < args.Length; i++)
        {
            args[i] = Args[i];
        }

        return Diagnostic.Create(Descriptor(Id), location, args);
    }

    private static DiagnosticDescriptor Descriptor(string id) => id switch
    {
        "JSONRPC001" => ContractDiagnostics.UnsupportedReturn,
        "JSONRPC002" => ContractDiagnostics.RefParameter,
        "JSONRPC003" => ContractDiagnostics.GenericMethod,
        "JSONRPC004" => ContractDiagnostics.DuplicateWireName,
        "JSONRPC005" => ContractDiagnostics.GenericContract,
        "JSONRPC006" => ContractDiagnostics.UnsupportedMember,
        "JSONRPC007" => ContractDiagnostics.UnsupportedParameter,
        "JSONRPC008" => ContractDiagnostics.NotASerializerContext,
        "JSONRPC009" => ContractDiagnostics.InvalidWireName,
        "JSONRPC010" => ContractDiagnostics.Inaccessible,
        "JSONRPC011" => ContractDiagnostics.UnsupportedEvent,
        _ => throw new ArgumentOutOfRangeException(nameof(id), id, null),
    };
}
