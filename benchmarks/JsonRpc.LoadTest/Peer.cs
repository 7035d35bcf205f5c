namespace JsonRpc.LoadTest;

/// <summary>Another JSON-RPC or messaging implementation run on the same workload, in the same invocation, after ours.</summary>
public enum Peer
{
    /// <summary>Ours only.</summary>
    None,

    /// <summary>
    /// StreamJsonRpc's <c>JsonRpc</c> serving <c>echo</c> over TCP (newline-delimited, <c>SystemTextJsonFormatter</c>),
    /// in this process, loaded by the same callers: the peer of direct mode.
    /// </summary>
    StreamJsonRpc,

    /// <summary>
    /// nats-server with NATS.Net callers (request-reply) and a queue-group echo responder: the peer of routed mode.
    /// </summary>
    Nats,
}
