using StreamJsonRpc;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The StreamJsonRpc peer's <c>echo</c>: returns its params as its result, <c>["…"]</c>, the same answer bytes as
/// the router's raw echo, so the same callers check it the same way.
/// </summary>
internal sealed class StreamJsonRpcEchoTarget
{
    [JsonRpcMethod(EchoPayload.Method)]
    public string[] Echo(string payload) => [payload];
}
