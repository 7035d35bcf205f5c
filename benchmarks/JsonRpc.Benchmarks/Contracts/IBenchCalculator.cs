using Ours = JsonRpc.Contracts;
using Theirs = StreamJsonRpc;

namespace JsonRpc.Benchmarks.Contracts;

/// <summary>The contract measured: one method, the dispatch benchmarks' <c>subtract</c>.</summary>
// StreamJsonRpc0008 asks for PolyType's [GenerateShape], which only its NerdbankMessagePack formatter uses.
#pragma warning disable StreamJsonRpc0008
[Ours.JsonRpcContract(typeof(Dispatch.BenchmarkJsonContext))]
[Theirs.JsonRpcContract]
public partial interface IBenchCalculator
#pragma warning restore StreamJsonRpc0008
{
    [Ours.JsonRpcMethod("subtract")]
    [Theirs.JsonRpcMethod("subtract")]
    ValueTask<int> SubtractAsync(int minuend, int subtrahend);
}

/// <summary>The implementation served.</summary>
public sealed class BenchCalculator : IBenchCalculator
{
    public ValueTask<int> SubtractAsync(int minuend, int subtrahend) => new(minuend - subtrahend);
}
