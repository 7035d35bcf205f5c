namespace JsonRpc.Server.Routing;

/// <summary>
/// A call forwarded to a provider and not yet answered: who asked, under which id, where the answer goes. Pooled:
/// whoever removes it from the provider's in-flight table (the answer, the timeout, the provider's disconnect or the
/// shutdown) completes it and returns it, exactly once.
/// </summary>
internal sealed class PendingCall
{
    private const int RetainedIdCapacity = 64;
    private byte[] _callerId = new byte[RetainedIdCapacity];
    private int _callerIdLength;

    public RouterConnection Caller { get; private set; } = null!;

    public BatchReply? Batch { get; private set; }

    public long RouterId { get; private set; }

    /// <summary>When the call times out (<see cref="Environment.TickCount64"/>); long.MaxValue for never.</summary>
    public long Deadline { get; set; }

    // Links in the provider's in-flight list, which is in deadline order (every call gets the same timeout).
    internal PendingCall? Previous;
    internal PendingCall? Next;

    /// <summary>The caller's id token exactly as sent (quotes included), to put back into the answer.</summary>
    public ReadOnlySpan<byte> CallerId => _callerId.AsSpan(0, _callerIdLength);

    public void Initialize(RouterConnection caller, ReadOnlySpan<byte> callerId, BatchReply? batch, long routerId)
    {
        Caller = caller;
        Batch = batch;
        RouterId = routerId;
        if (callerId.Length > _callerId.Length)
        {
            _callerId = new byte[callerId.Length];
        }

        callerId.CopyTo(_callerId);
        _callerIdLength = callerId.Length;
    }

    public void Clear()
    {
        Caller = null!;
        Batch = null;
        RouterId = 0;
        Previous = Next = null;
        _callerIdLength = 0;
        if (_callerId.Length > RetainedIdCapacity)
        {
            _callerId = new byte[RetainedIdCapacity]; // don't keep a huge id alive in the pool
        }
    }
}
