using StreamJsonRpc;

namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>The same two methods as the other dispatchers, as a StreamJsonRpc target object.</summary>
internal sealed class StreamJsonRpcTarget
{
    [JsonRpcMethod("subtract")]
    public int Subtract(int minuend, int subtrahend) => DispatchSamples.Subtract(minuend, subtrahend);

    [JsonRpcMethod("fail")]
    public int Fail(int minuend, int subtrahend) => DispatchSamples.Fail(minuend, subtrahend);
}
