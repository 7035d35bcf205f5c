using System.Threading.Tasks.Sources;

namespace JsonRpc.Server.Routing;

/// <summary>
/// The messages waiting for one connection's single writer loop: many producers (any connection's read loop, the
/// timer, host methods), one consumer. Bounded by the bytes of memory the queued messages hold (each message's rented
/// buffer, not only the bytes written into it), not by count, so that memory per connection is capped whatever the
/// message sizes: a flood of 40-byte answers, each in a buffer of at least 256 bytes, would otherwise hold six times
/// the bound. The writer waits through a reusable <see cref="IValueTaskSource{TResult}"/>, so the steady state
/// allocates nothing.
/// <para>
/// Waking the writer: where socket completions run inline, a message queued by a read loop while it handles what one
/// read brought (see <see cref="WriterWakes"/>) wakes the writer on that same thread once the read is handled, instead
/// of through the thread pool: the writer then frames and flushes every message the read led to in one go, and the connection that
/// caused them pays for it, with no thread hop and no wake-up of an idle pool thread per message. Anything else (timers,
/// host methods, a queue that grew past <see cref="MaxDeferredBytes"/> meanwhile) wakes it on the thread pool.
/// </para>
/// </summary>
internal sealed class OutboundQueue : IValueTaskSource<bool>
{
    private readonly Lock _lock = new();
    private readonly long _maxBytes;
    private OutboundMessage[] _items = new OutboundMessage[16];
    private int _head;
    private int _count;
    private long _bytes;
    private bool _completed;
    private bool _waiting;

    // Whether the writer's wake-up is held in this thread's WriterWakes until its read is handled.
    private bool _wakeDeferred;

    // The writer's wait: one at a time, so one continuation, one result and a version that tells stale awaiters apart.
    private static readonly Action<object?> s_signalled = static _ => { };
    private Action<object?>? _continuation;
    private object? _continuationState;
    private bool _result;
    private short _version;

    /// <summary>
    /// Past this many queued bytes a deferred wake-up is not held any longer: the writer is woken on the thread pool
    /// at once, so that a read that routes a lot to one connection does not hold it all back until the read is handled.
    /// </summary>
    internal const long MaxDeferredBytes = 256 * 1024;

    // Past the bound, a client still counts as reading while its writer took a message this recently (answers released
    // to it together, e.g. a batch and the errors of others, pass the bound for a moment); past twice the bound it is
    // dropped at once either way.
    internal const long DefaultProgressTimeoutMs = 5000;

    private readonly MemoryBudget? _budget;
    private readonly long _progressTimeoutMs;
    private long _progressAt;

    public OutboundQueue(long maxBytes, MemoryBudget? budget = null, long progressTimeoutMs = DefaultProgressTimeoutMs)
    {
        _maxBytes = maxBytes;
        _budget = budget;
        _progressTimeoutMs = progressTimeoutMs;
    }

    /// <summary>Bytes of buffer held by the messages queued and not yet taken by the writer (read without the lock: the read loop asks after every message).</summary>
    public long QueuedBytes => Volatile.Read(ref _bytes);

    /// <summary>
    /// Queues <paramref name="message"/>, taking ownership of its buffer whatever the result. One message is always
    /// accepted into an empty queue, so a single message never exceeds the bound by more than its own size.
    /// <paramref name="owed"/> marks an answer to one of this client's own pending calls: the router's own when the
    /// provider left or the call timed out, and a provider's while the client is taking what it is sent. These come in
    /// bursts (every call to a provider fails at once when it leaves; a provider may release all it held together) and
    /// are bounded by the pending calls a connection may have, so they pass the bound while the client reads at all and
    /// are refused only when its writer has made no progress for the timeout. Whoever answers is paused meanwhile (see
    /// <c>NoteAnsweredTo</c>).
    /// </summary>
    public EnqueueResult Enqueue(OutboundMessage message, bool owed = false)
    {
        var wake = false;
        lock (_lock)
        {
            if (_completed)
            {
                message.Return();
                return EnqueueResult.Closed;
            }

            var now = Environment.TickCount64;
            if (_count == 0)
            {
                _progressAt = now; // nothing was waiting: the client is up to date
            }
            else if (_bytes + message.Buffer.Length > _maxBytes
                && ((!owed && _bytes + message.Buffer.Length > 2 * _maxBytes) || now - _progressAt >= _progressTimeoutMs))
            {
                message.Return();
                return EnqueueResult.Full;
            }

            if (_count == _items.Length)
            {
                Grow();
            }

            _items[(_head + _count) % _items.Length] = message;
            _count++;
            _bytes += message.Buffer.Length;
            _budget?.Add(message.Buffer.Length);
            if (_waiting)
            {
                _waiting = false;
                if (WriterWakes.TryDefer(this))
                {
                    _wakeDeferred = true;
                }
                else
                {
                    wake = true;
                }
            }
            else if (_wakeDeferred && _bytes > MaxDeferredBytes)
            {
                _wakeDeferred = false;
                wake = true;
            }
        }

        if (wake)
        {
            Signal(true, inline: false);
        }

        return EnqueueResult.Queued;
    }

    /// <summary>Waits until a message is queued (true) or the queue is completed and empty (false). One caller at a time.</summary>
    public ValueTask<bool> WaitAsync()
    {
        lock (_lock)
        {
            if (_count > 0)
            {
                return new ValueTask<bool>(true);
            }

            if (_completed)
            {
                return new ValueTask<bool>(false);
            }

            _version++;
            _continuation = null;
            _continuationState = null;
            _waiting = true;
            return new ValueTask<bool>(this, _version);
        }
    }

    /// <summary>
    /// Whether messages wait and the writer has taken none for the progress timeout: the client does not read (its
    /// socket takes nothing).
    /// </summary>
    public bool IsStalled(long now)
    {
        lock (_lock)
        {
            return _count > 0 && now - _progressAt >= _progressTimeoutMs;
        }
    }

    /// <summary>
    /// Whether the client is taking what it is sent right now: nothing waits, or the writer took a message within
    /// <paramref name="withinMs"/>. Read without the lock (a hint for back-pressure, not a decision of the queue's).
    /// </summary>
    public bool IsTaking(long now, long withinMs) => Volatile.Read(ref _count) == 0 || now - Volatile.Read(ref _progressAt) < withinMs;

    /// <summary>Takes the oldest message; the caller then owns its buffer.</summary>
    public bool TryDequeue(out OutboundMessage message)
    {
        lock (_lock)
        {
            if (_count == 0)
            {
                message = default;
                return false;
            }

            message = _items[_head];
            _items[_head] = default;
            _head = (_head + 1) % _items.Length;
            _count--;
            _bytes -= message.Buffer.Length;
            _budget?.Add(-message.Buffer.Length);
            _progressAt = Environment.TickCount64;
            return true;
        }
    }

    /// <summary>
    /// Accepts nothing more. Queued messages are still handed out, unless <paramref name="discard"/>, which returns
    /// their buffers at once.
    /// </summary>
    public void Complete(bool discard)
    {
        var wake = false;
        var any = false;
        lock (_lock)
        {
            _completed = true;
            if (discard)
            {
                while (_count > 0)
                {
                    _items[_head].Return();
                    _items[_head] = default;
                    _head = (_head + 1) % _items.Length;
                    _count--;
                }

                _budget?.Add(-_bytes);
                _bytes = 0;
            }

            any = _count > 0;
            if (_waiting || _wakeDeferred)
            {
                _waiting = false;
                _wakeDeferred = false;
                wake = true;
            }
        }

        if (wake)
        {
            Signal(any, inline: false);
        }
    }

    /// <summary>
    /// Runs a wake-up <see cref="WriterWakes"/> held: <paramref name="inline"/>, the writer goes on on this thread (no
    /// locks held here) until it waits again, for the socket or for more messages. A no-op when the wake-up already
    /// went another way.
    /// </summary>
    internal void RunDeferredWake(bool inline)
    {
        lock (_lock)
        {
            if (!_wakeDeferred)
            {
                return;
            }

            _wakeDeferred = false;
        }

        Signal(true, inline);
    }

    // Completes the writer's wait; called once per wait, by whoever took the waiting flag under the lock.
    private void Signal(bool result, bool inline)
    {
        _result = result;
        var continuation = Interlocked.Exchange(ref _continuation, s_signalled);
        if (continuation is null)
        {
            return; // the writer has not begun to wait: it finds the wait completed
        }

        if (inline)
        {
            continuation(_continuationState);
        }
        else
        {
            ThreadPool.UnsafeQueueUserWorkItem(continuation, _continuationState, preferLocal: false);
        }
    }

    private void Grow()
    {
        var items = new OutboundMessage[_items.Length * 2];
        for (var i = 0; i < _count; i++)
        {
            items[i] = _items[(_head + i) % _items.Length];
        }

        _items = items;
        _head = 0;
    }

    bool IValueTaskSource<bool>.GetResult(short token)
    {
        CheckToken(token);
        return Volatile.Read(ref _continuation) == s_signalled ? _result : throw new InvalidOperationException("The writer's wait has not completed.");
    }

    ValueTaskSourceStatus IValueTaskSource<bool>.GetStatus(short token)
    {
        CheckToken(token);
        return Volatile.Read(ref _continuation) == s_signalled ? ValueTaskSourceStatus.Succeeded : ValueTaskSourceStatus.Pending;
    }

    // The writer awaits with ConfigureAwait(false) and its state machine restores its own execution context, so the
    // flags ask for nothing to capture.
    void IValueTaskSource<bool>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        CheckToken(token);
        _continuationState = state;
        if (Interlocked.CompareExchange(ref _continuation, continuation, null) is not null)
        {
            // Signalled in between: go on on the pool, as an awaiter that found it completed late would.
            ThreadPool.UnsafeQueueUserWorkItem(continuation, state, preferLocal: true);
        }
    }

    private void CheckToken(short token)
    {
        if (token != _version)
        {
            throw new InvalidOperationException("The writer's wait was awaited twice.");
        }
    }
}
