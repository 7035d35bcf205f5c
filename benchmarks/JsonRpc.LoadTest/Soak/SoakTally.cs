using System.Collections.Concurrent;

namespace JsonRpc.LoadTest.Soak;

/// <summary>
/// The soak's counts, shared by every caller: calls and their outcomes for the whole run, and the latencies and answers
/// of the current sampling interval (taken and reset by the sampler once a second).
/// </summary>
internal sealed class SoakTally
{
    // Raw callers: every call ends in exactly one of Results, Errors, Abandoned (its connection closed on purpose),
    // Lost (no answer by the end) or LostWithConnection (the router closed the caller's connection).
    public long Sent;
    public long Results;
    public long Errors;
    public long Abandoned;
    public long Lost;
    public long LostWithConnection;
    public long Mismatches;
    public long Strays;
    public long Notices;
    public long ConnectFailures;

    // JsonRpcClient callers: every call returns once (a result, a remote error, a cancellation, a lost connection).
    public long ClientCalls;
    public long ClientResults;
    public long ClientErrors;
    public long ClientCancelled;
    public long ClientConnectionLost;
    public long ClientMismatches;
    public long ClientTimedOut;
    public long ClientHung;

    // Events: at most once by design; counted, not checked one by one.
    public long EventsPublished;
    public long EventsReceived;

    public readonly ConcurrentDictionary<int, long> ErrorCodes = new();

    private readonly Lock _lock = new();
    private List<double> _latenciesMs = new(4096);
    private long _answers;

    public void Add(ref long counter, long value = 1) => Interlocked.Add(ref counter, value);

    public void Result(TimeSpan latency)
    {
        Interlocked.Increment(ref Results);
        lock (_lock)
        {
            _latenciesMs.Add(latency.TotalMilliseconds);
            _answers++;
        }
    }

    public void Error(int code)
    {
        Interlocked.Increment(ref Errors);
        ErrorCodes.AddOrUpdate(code, 1, static (_, n) => n + 1);
        lock (_lock)
        {
            _answers++;
        }
    }

    /// <summary>A JsonRpcClient call answered in this interval (its latency counts too).</summary>
    public void ClientAnswered(TimeSpan latency)
    {
        lock (_lock)
        {
            _latenciesMs.Add(latency.TotalMilliseconds);
            _answers++;
        }
    }

    /// <summary>Takes the interval's answers and latencies, and starts a new interval.</summary>
    public (long Answers, List<double> LatenciesMs) TakeInterval()
    {
        lock (_lock)
        {
            var taken = (_answers, _latenciesMs);
            _answers = 0;
            _latenciesMs = new List<double>(Math.Max(4096, taken._latenciesMs.Count));
            return taken;
        }
    }
}
