using System.Linq;

namespace JsonRpc.Generators;

/// <summary>
/// The per-call forwarder: an implementation of the contract that takes the implementation of each call from a
/// <c>JsonRpcTargetActivator</c> and ends its lifetime once the call has ended (a stream's, once it is enumerated or
/// abandoned). Served like any implementation, it gives each call, for example, its own dependency injection scope.
/// </summary>
internal sealed partial class ContractEmitter
{
    private void EmitPerCall()
    {
        var activator = $"global::JsonRpc.Contracts.JsonRpcTargetActivator<{_contract.InterfaceType}>";
        Line("/// <summary>Serves each call from the implementation an activator makes for it.</summary>");
        Line($"file sealed class PerCall : {_contract.InterfaceType}");
        Open();
        Line($"private readonly {activator} _activator;");
        Line();
        Line($"public PerCall({activator} activator) => _activator = activator;");
        foreach (var method in _contract.Methods)
        {
            Line();
            EmitPerCallMethod(method);
        }

        EmitPerCallEvents();
        Close();
    }

    private void EmitPerCallMethod(MethodModel method)
    {
        var stream = method.Kind == ReturnKind.AsyncEnumerable;
        var parameters = string.Join(", ", method.Params.Select(p =>
            (stream && p.Kind == ParamKind.CancellationToken ? "[global::System.Runtime.CompilerServices.EnumeratorCancellation] " : string.Empty) + $"{p.Type} {Id(p.Name)}"));
        var call = $"(({method.DeclaringType})__target).{Id(method.Name)}({string.Join(", ", method.Params.Select(p => Id(p.Name)))})";
        Line($"async {method.ReturnType} {method.DeclaringType}.{Id(method.Name)}({parameters})");
        Open();
        Line("var __target = _activator.Activate(out var __lifetime);");
        Line("try");
        Open();
        Line(method.Kind switch
        {
            ReturnKind.AsyncEnumerable => $"await foreach (var __item in global::System.Threading.Tasks.TaskAsyncEnumerableExtensions.ConfigureAwait({call}, false)) yield return __item;",
            ReturnKind.Task or ReturnKind.ValueTask => $"await {call}.ConfigureAwait(false);",
            _ => $"return await {call}.ConfigureAwait(false);",
        });
        Close();
        Line("finally");
        Open();
        Line($"await {Support}.EndAsync(__lifetime).ConfigureAwait(false);");
        Close();
        Close();
    }
}
