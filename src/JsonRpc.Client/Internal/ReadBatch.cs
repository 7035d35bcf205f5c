namespace JsonRpc.Client.Internal;

/// <summary>
/// The work one read of a connection led to (callers to resume with their answers, the peer's calls to serve), run in
/// the order it was read by the read loop's own thread before it reads again (<see cref="RunBeforeReading"/>), or by
/// one thread-pool work item (<see cref="Start"/>), rather than one work item each.
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
/// The read loop fills a batch and runs or starts it; from then on it belongs to its runner, which hands it back to the
/// connection for reuse once every item has run. A lock guards only the runner's end against the watch. Run on the read
/// loop's thread, the batch parks the reading: a batch still running a whole period after the watch's first look hands
/// the reading to the pool (<see cref="ClientConnection.ResumeParkedReading"/>), so that an item that blocks cannot stop
/// it; a batch queued to the pool (a read that led to more than <see cref="Capacity"/> items) has the batches after it
/// queued behind it rather than run first.
/// </para>
/// </remarks>
internal sealed class ReadBatch : IThreadPoolWorkItem, IPeriodWatched
{
    /// <summary>
    /// A read that leads to more work than this starts a batch for each this many. Large enough that a read of every
    /// answer a connection has in flight (hundreds with pipelining) stays one batch, run in order on the read loop's
    /// thread; the array starts small and grows to it only when reads bring that much.
    /// </summary>
    public const int Capacity = 1024;

    private readonly ClientConnection _connection;
    private IThreadPoolWorkItem?[] _items = new IThreadPoolWorkItem?[64];
    private readonly Lock _gate = new();
    private int _count;
    private int _next;
    private int _epoch;

    // Guarded by _gate: the current run parks the connection's reading (RunBeforeReading).
    private bool _holdsReading;

    public ReadBatch(ClientConnection connection) => _connection = connection;

    public bool IsEmpty => _count == 0;

    public bool IsFull => _count == Capacity;

    /// <summary>Adds an item (read loop only, before <see cref="Start"/>); the connection holds its writes for it.</summary>
    public void Add(IThreadPoolWorkItem item)
    {
        if (_count == _items.Length)
        {
            // Only while the batch is being filled: no runner, and the watch looks at the items of a running epoch only.
            Array.Resize(ref _items, _items.Length * 2);
        }

        _items[_count++] = item;
    }

    /// <summary>Queues the runner and has the batch watched; the read loop lets go of it here.</summary>
    public void Start()
    {
        var epoch = Begin();

        // The global queue, first in first out: a later read's batch does not overtake this one.
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        if (_count > 1)
        {
            PeriodWatch.Watch(this, epoch);
        }
    }

    /// <summary>
    /// Runs the batch on the read loop's thread, which reads again once it is done (<see cref="ClientConnection"/>):
    /// watched whatever its size, and if it still runs a whole period after the watch's first look the reading is
    /// handed to the pool, so that an item that blocks (waiting for an answer this connection has yet to read, say)
    /// stops the reading for at most about two periods.
    /// </summary>
    public void RunBeforeReading()
    {
        PeriodWatch.Watch(this, Begin(holdsReading: true));
        Run();
    }

    /// <summary>On the pool (<see cref="Start"/>).</summary>
    void IThreadPoolWorkItem.Execute()
    {
        _connection.QueuedBatchRunning();
        Run();
    }

    private int Begin(bool holdsReading = false)
    {
        lock (_gate)
        {
            _next = 0;
            _holdsReading = holdsReading;
            return ++_epoch;
        }
    }

    /// <summary>Runs the items in order, each releasing the hold its <see cref="Add"/> took.</summary>
    private void Run()
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
            _holdsReading = false;
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
            if (epoch != _epoch)
            {
                return false;
            }

            var next = Volatile.Read(ref _next);
            if (seen < 0)
            {
                // Looked at again a whole period on while it runs (or while it holds the reading, even on its last item).
                if (next >= _count && !_holdsReading)
                {
                    return false;
                }

                seen = next;
                return true;
            }

            if (_holdsReading)
            {
                _holdsReading = false;
                _connection.ResumeParkedReading();
            }

            if (next >= _count)
            {
                return false;
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
