namespace JsonRpc.Protocol;

/// <summary>
/// OpenRPC (<see href="https://spec.open-rpc.org"/>): the service description format of JSON-RPC 2.0, and its
/// discovery method.
/// </summary>
public static class OpenRpc
{
    /// <summary>The version of the OpenRPC specification the documents follow (the <c>openrpc</c> member).</summary>
    public const string Version = "1.3.2";

    /// <summary>The discovery method: answers the service's OpenRPC document.</summary>
    public const string DiscoverMethod = "rpc.discover";
}
