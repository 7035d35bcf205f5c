namespace JsonRpc.LoadTest;

/// <summary>Whose peers the streaming case runs (<c>--streaming-stack</c>).</summary>
public enum StreamingStack
{
    /// <summary>StreamJsonRpc callers and generator.</summary>
    StreamJsonRpc,

    /// <summary>JsonRpcClient callers (<c>StreamAsync</c>) and a JsonRpcDispatcher generator (<c>AddStream</c>).</summary>
    Ours,
}
