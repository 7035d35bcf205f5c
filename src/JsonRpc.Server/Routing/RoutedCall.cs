namespace JsonRpc.Server.Routing;

/// <summary>
/// A call forwarded to a provider and not yet answered: who asked, under which id, who holds it, where the answer goes.
/// It sits in two lists at once: the provider's in-flight table and the caller's own pending calls (for the caller's
/// cancellations). Pooled: whoever removes it from the provider's in-flight table (the answer, the timeout, the
/// provider's disconnect or the shutdown) completes it, takes it out of the caller's list and returns it, exactly once.
/// </summary>
internal sealed class RoutedCall
{
    private const int RetainedIdCapacity = 64;
    private byte[] _callerId = new byte[RetainedIdCapacity];
    private int _callerIdLength;

    public RouterConnection Caller { get; private set; } = null!;

    /// <summary>The connection the call was routed to.</summary>
    public RouterConnection Provider { get; private set; } = null!;

    public BatchReply? Batch { get; private set; }

    public long RouterId { get; private set; }

    /// <summary>The router's span of the call, when someone traces (<see cref="Diagnostics.RouterTracing"/>).</summary>
    public System.Diagnostics.Activity? Activity { get; set; }

    /// <summary>When the call times out (<see cref="Environment.TickCount64"/>); long.MaxValue for never.</summary>
    public long Deadline { get; set; }

    // Links in the provider's in-flight list, which is in deadline order (every call gets the same timeout).
    internal RoutedCall? Previous;
    internal RoutedCall? Next;

    // Links in the caller's list of its pending calls (guarded by the caller's lock; no order).
    internal RoutedCall? CallerPrevious;
    internal RoutedCall? CallerNext;

    // Streams and progress (RouterConnection.Streams.cs): the progress tokens the call's params may carry, whether a
    // provider's progress was routed by one of them, the stream this call pulls, and the streams its arguments opened.
    private List<Streams.ProgressToken>? _progress;
    internal bool ProgressRouted;

    /// <summary>The method's route, for calls routed by method (progress arguments are learned per method).</summary>
    internal RouteEntry? Route;
    internal Streams.EnumeratorStream? Pull;

    /// <summary>The router's own pull of <see cref="Pull"/> ahead of its consumer, not yet taken over by the consumer's pull.</summary>
    internal bool ReadAhead;
    internal List<Streams.EnumeratorStream>? ArgumentStreams;

    /// <summary>The progress tokens the call's params may carry (empty for most calls), kept with the pooled call.</summary>
    internal List<Streams.ProgressToken> Progress => _progress ??= [];

    internal bool HasProgress => _progress is { Count: > 0 };

    /// <summary>The caller's id token exactly as sent (quotes included), to put back into the answer.</summary>
    public ReadOnlySpan<byte> CallerId => _callerId.AsSpan(0, _callerIdLength);

    public void Initialize(RouterConnection caller, RouterConnection provider, ReadOnlySpan<byte> callerId, BatchReply? batch, long routerId)
    {
        Caller = caller;
        Provider = provider;
        Batch = batch;
        RouterId = routerId;
        if (callerId.Length > _callerId.Length)
        {
            _callerId = new byte[callerId.Length];
        }

        callerId.CopyTo(_callerId);
        _callerIdLength = callerId.Length;
    }

    /// <summary>A consumer's pull takes over the router's read-ahead: the answer now goes to it, under its id.</summary>
    public void Adopt(ReadOnlySpan<byte> callerId, BatchReply? batch)
    {
        Batch = batch;
        if (callerId.Length > _callerId.Length)
        {
            _callerId = new byte[callerId.Length];
        }

        callerId.CopyTo(_callerId);
        _callerIdLength = callerId.Length;
        ReadAhead = false;
    }

    public void Clear()
    {
        Caller = null!;
        Provider = null!;
        Batch = null;
        RouterId = 0;
        Activity = null;
        Previous = Next = null;
        CallerPrevious = CallerNext = null;
        _callerIdLength = 0;
        _progress?.Clear();
        ProgressRouted = false;
        Route = null;
        Pull = null;
        ReadAhead = false;
        ArgumentStreams = null;
        if (_callerId.Length > RetainedIdCapacity)
        {
            _callerId = new byte[RetainedIdCapacity]; // don't keep a huge id alive in the pool
        }
    }
}
