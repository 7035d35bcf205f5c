namespace JsonRpc.Client.Internal;

/// <summary>
/// The work one read of a connection led to (callers to resume with their answers, the peer's calls to serve), run by
/// one thread-pool work item in the order it was read rather than one work item each.
/// </summary>
/// <remarks>
/// <para>
/// Sixty-four answers that arrive in one read used to be sixty-four work items: each queued item asked the pool for
/// another worker, each woken worker took a few and then spun (<c>sched_yield</c>) and slept again, and on a small
/// machine that churn cost as much CPU as the calls themselves. One runner takes them in turn instead; the calls their
/// continuations write leave together (<see cref="ClientConnection.Defer"/>).
/// </para>
/// <para>
/// A continuation may block its thread (waiting synchronously for another call, say), or run long. Then what is queued
/// behind it must not wait: <see cref="PeriodWatch"/> looks at a running batch every period, and one still running a
/// whole period after the first look has the rest of its work queued to the pool one item each, as without batching.
/// </para>
/// <para>
/// The read loop fills a batch and starts it (<see cref="Start"/>); from then on it belongs to its runner, which hands it
/// back to the connection for reuse once every item has run. A lock guards only the runner's end against the watch.
/// </para>
/// </remarks>
internal sealed class ReadBatch : IThreadPoolWorkItem, IPeriodWatched
{
    /// <summary>A read that leads to more work than this starts a batch for each this many.</summary>
    public const int Capacity = 64;

    private readonly ClientConnection _connection;
    private readonly IThreadPoolWorkItem?[] _items = new IThreadPoolWorkItem?[Capacity];
    private readonly Lock _gate = new();
    private int _count;
    private int _next;
    private int _epoch;

    public ReadBatch(ClientConnection connection) => _connection = connection;

    public bool IsEmpty => _count == 0;

    public bool IsFull => _count == Capacity;

    /// <summary>Adds an item (read loop only, before <see cref="Start"/>); the connection holds its writes for it.</summary>
    public void Add(IThreadPoolWorkItem item) => _items[_count++] = item;

    /// <summary>Queues the runner and has the batch watched; the read loop lets go of it here.</summary>
    public void Start()
    {
        int epoch;
        lock (_gate)
        {
            epoch = ++_epoch;
            _next = 0;
        }

        // The global queue, first in first out: a later read's batch does not overtake this one.
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        if (_count > 1)
        {
            PeriodWatch.Watch(this, epoch);
        }
    }

    /// <summary>Runs the items in order, each releasing the hold its <see cref="Add"/> took.</summary>
    public void Execute()
    {
        int index;
        while ((index = Interlocked.Increment(ref _next) - 1) < _count)
        {
            var item = _items[index]!;
            _items[index] = null;
            try
            {
                item.Execute();
            }
            finally
            {
                _connection.ReleaseWrites();
            }
        }

        lock (_gate)
        {
            // Past this point the watch sees another epoch and leaves the batch alone.
            _epoch++;
            _count = 0;
        }

        _connection.ReturnBatch(this);
    }

    /// <summary>
    /// The watch, a period on: the first look notes the batch; if it is still not done at the next (a whole period
    /// later: an item blocks, or the items are slow), what its runner has not taken yet goes to the pool one item each,
    /// released from the write hold (nothing is then waiting for them to write) outside the lock.
    /// </summary>
    public bool OnPeriodElapsed(int epoch, ref int seen)
    {
        IThreadPoolWorkItem?[]? handedOn = null;
        var handed = 0;
        lock (_gate)
        {
            var next = Volatile.Read(ref _next);
            if (epoch != _epoch || next >= _count)
            {
                return false;
            }

            if (seen < 0)
            {
                seen = next;
                return true;
            }

            int index;
            while ((index = Interlocked.Increment(ref _next) - 1) < _count)
            {
                handedOn ??= new IThreadPoolWorkItem?[_count - index];
                handedOn[handed++] = _items[index];
                _items[index] = null;
            }
        }

        for (var i = 0; i < handed; i++)
        {
            _connection.ReleaseWrites(sendHere: false);
            ThreadPool.UnsafeQueueUserWorkItem(handedOn![i]!, preferLocal: false);
        }

        return false;
    }
}
