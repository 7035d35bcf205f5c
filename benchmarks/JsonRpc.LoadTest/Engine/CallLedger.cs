using System.Diagnostics;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The calls of one caller (a connection, or one lane of a client connection): ids 1, 2, 3, … in sending order, at
/// most <c>window</c> of them in flight. Every answer is checked against it: an id never sent is unexpected, an id
/// already answered is a duplicate, a result that is not the echo of that very call's payload is a mismatch, and what
/// is still in flight at the end is missing. Latencies of answers arriving in the measured window go into the
/// histogram. Single-threaded: one ledger per reader; the counters others read (progress) are written with
/// <see cref="Volatile"/>.
/// </summary>
internal sealed class CallLedger
{
    private readonly long[] _slotIds;
    private readonly long[] _sentAt;
    private readonly int _mask;
    private readonly int _window;
    private readonly RunClock _clock;
    private long _nextId = 1;
    private long _answered;
    private long _errors;

    /// <param name="window">The most calls in flight.</param>
    /// <param name="payload">What each call echoes.</param>
    /// <param name="clock">The run's phases.</param>
    /// <param name="sharedLatency">
    /// Histograms per thread shared by many ledgers (the lanes of one connection), instead of one of this ledger's
    /// own: a histogram is 128 KB, and hundreds of lanes each writing their own spread the latency records over tens
    /// of megabytes, which costs the lanes' callers cache misses the raw callers (one ledger per connection) do not pay.
    /// </param>
    public CallLedger(int window, EchoPayload payload, RunClock clock, ThreadLocal<LatencyHistogram>? sharedLatency = null)
    {
        SharedLatency = sharedLatency;
        // Twice the window, so that answers out of order rarely find the next slot still taken.
        var size = (int)Math.Max(2, System.Numerics.BitOperations.RoundUpToPowerOf2((uint)window * 2));
        _slotIds = new long[size];
        _sentAt = new long[size];
        _mask = size - 1;
        _window = window;
        _clock = clock;
        Payload = payload;
    }

    public EchoPayload Payload { get; }

    /// <summary>This ledger's latencies (empty when it records into <see cref="SharedLatency"/>).</summary>
    public LatencyHistogram Latency { get; } = new();

    /// <summary>The per-thread histograms this ledger records into, shared with others, or null.</summary>
    public ThreadLocal<LatencyHistogram>? SharedLatency { get; }

    /// <summary>Calls sent.</summary>
    public long Sent => _nextId - 1;

    /// <summary>Calls answered once (correctly or with an error), readable from any thread.</summary>
    public long Answered => Volatile.Read(ref _answered);

    /// <summary>Error answers and failed calls, readable from any thread.</summary>
    public long Errors => Volatile.Read(ref _errors);

    public long InFlight => Sent - _answered;

    /// <summary>Calls answered inside the measured window.</summary>
    public long Measured { get; private set; }

    public long Duplicates { get; private set; }

    public long Unexpected { get; private set; }

    public long Mismatches { get; private set; }

    /// <summary>Calls answered with a JSON-RPC error.</summary>
    public long ErrorAnswers { get; private set; }

    /// <summary>The first thing that went wrong, for the report.</summary>
    public string? FirstProblem { get; private set; }

    /// <summary>Why the connection ended early (closed by the peer, a socket error), or null.</summary>
    public string? Failure { get; private set; }

    /// <summary>Takes the next id if the window has room, and stamps its send time.</summary>
    public bool TryBegin(out long id) => TryBegin(out id, Stopwatch.GetTimestamp());

    /// <summary>
    /// <see cref="TryBegin(out long)"/> with the send time read by the caller: one clock read for a window's worth of
    /// calls written together, or a lane's answer time that is also its next call's start.
    /// </summary>
    public bool TryBegin(out long id, long now)
    {
        id = _nextId;
        var slot = id & _mask;
        if (_nextId - 1 - _answered >= _window || _slotIds[slot] != 0)
        {
            return false;
        }

        _slotIds[slot] = id;
        _sentAt[slot] = now;
        _nextId++;
        return true;
    }

    /// <summary>
    /// A result for call <paramref name="id"/>; <paramref name="isEcho"/> tells whether it was the echo of its payload.
    /// False when it answered no call in flight (a duplicate, or an id never sent).
    /// </summary>
    public bool Answer(long id, bool isEcho, long now)
    {
        if (!TryRelease(id, now))
        {
            return false;
        }

        if (!isEcho)
        {
            Mismatches++;
            Volatile.Write(ref _errors, _errors + 1);
            Problem($"call {id}: the result is not the echo of its payload");
        }

        return true;
    }

    /// <summary>An error answer for call <paramref name="id"/> (or a call that failed on the client side).</summary>
    public void Error(long id, string detail, long now)
    {
        if (TryRelease(id, now))
        {
            ErrorAnswers++;
            Volatile.Write(ref _errors, _errors + 1);
            Problem($"call {id}: {detail}");
        }
    }

    /// <summary>
    /// An answer whose kind the caller judges itself (the flood's refusals, which are what it expects): only checked
    /// against the calls in flight. False when it answered none (a duplicate, or an id never sent).
    /// </summary>
    public bool Settle(long id, long now) => TryRelease(id, now);

    /// <summary>Something arrived that answers no call of ours (unreadable, or without a usable id).</summary>
    public void Stray(string detail)
    {
        Unexpected++;
        Volatile.Write(ref _errors, _errors + 1);
        Problem(detail);
    }

    /// <summary>The connection failed: whatever is in flight stays missing.</summary>
    public void ConnectionFailed(string detail)
    {
        Failure ??= detail;
        Volatile.Write(ref _errors, _errors + 1);
        Problem(detail);
    }

    private bool TryRelease(long id, long now)
    {
        if (id < 1 || id >= _nextId)
        {
            Stray($"an answer with id {id}, which was never sent");
            return false;
        }

        var slot = id & _mask;
        if (_slotIds[slot] != id)
        {
            Duplicates++;
            Volatile.Write(ref _errors, _errors + 1);
            Problem($"call {id} answered twice");
            return false;
        }

        _slotIds[slot] = 0;
        Volatile.Write(ref _answered, _answered + 1);
        if (_clock.IsMeasured(now))
        {
            Measured++;
            (SharedLatency?.Value ?? Latency).Record(RunClock.ToNanoseconds(now - _sentAt[slot]));
        }

        return true;
    }

    private void Problem(string detail) => FirstProblem ??= detail;
}
