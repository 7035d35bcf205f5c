namespace JsonRpc.Dispatch;

/// <summary>
/// The way back to the peer of one connection, for what the dispatcher sends it besides answers: the progress
/// notifications of its calls (<c>$/progress</c>, <c>notifications/progress</c>) and, on a connection
/// <see cref="JsonRpcDispatcher.ServeAsync"/> serves, the events of the dispatcher's contract targets. A host gives one
/// to the connection's <see cref="JsonRpcCancellationScope"/>; without one, a method's <see cref="IProgress{T}"/>
/// reports go nowhere.
/// </summary>
/// <remarks>
/// <see cref="TrySend"/> must put the message in the connection's outgoing order at once (before the call's answer,
/// which the host sends only after the handler returned) and must not hold it without bound: a host whose peer is not
/// reading drops the message and returns false. Progress and events are advisory; a dropped one is not an error.
/// </remarks>
public abstract class JsonRpcPeerChannel
{
    private long _lastToken;

    /// <summary>
    /// Queues one complete notification (JSON, no framing) for the peer, copying it; false when it was dropped (the
    /// peer is backed up or gone). Called from the handler's thread, possibly from several calls at once.
    /// </summary>
    public abstract bool TrySend(ReadOnlySpan<byte> notification);

    /// <summary>
    /// The token of the next async enumerable served to this peer (StreamJsonRpc's <c>{"token": n}</c>): by default
    /// 1, 2, 3… per channel. A host that issues enumerator tokens of its own on the same connection overrides it so
    /// that the two never collide.
    /// </summary>
    public virtual long NextEnumeratorToken() => Interlocked.Increment(ref _lastToken);
}
