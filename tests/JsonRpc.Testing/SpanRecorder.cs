using System.Collections.Concurrent;
using System.Diagnostics;

namespace JsonRpc.Testing;

/// <summary>
/// Records the spans (<see cref="Activity"/>) of the named sources as they stop, for as long as it lives. Listeners are
/// process-wide, so other tests running meanwhile may add spans: select by trace id (<see cref="InTrace"/>).
/// </summary>
public sealed class SpanRecorder : IDisposable
{
    private readonly ActivityListener _listener;
    private readonly ConcurrentQueue<Activity> _stopped = new();

    public SpanRecorder(params string[] sources)
    {
        var names = new HashSet<string>(sources, StringComparer.Ordinal);
        _listener = new ActivityListener
        {
            ShouldListenTo = source => names.Contains(source.Name),
            Sample = static (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _stopped.Enqueue,
        };
        ActivitySource.AddActivityListener(_listener);
    }

    /// <summary>The stopped spans of one trace, in the order they stopped.</summary>
    public IReadOnlyList<Activity> InTrace(ActivityTraceId traceId) => [.. _stopped.Where(a => a.TraceId == traceId)];

    /// <summary>Waits (bounded) until <paramref name="count"/> spans of source <paramref name="source"/> in the trace have stopped.</summary>
    public async Task<IReadOnlyList<Activity>> WaitForAsync(ActivityTraceId traceId, string source, int count, TimeSpan? timeout = null)
    {
        await Eventually.TrueAsync(() => InTrace(traceId).Count(a => a.Source.Name == source) >= count,
            $"{count} span(s) of {source} in trace {traceId}", timeout).ConfigureAwait(false);
        return [.. InTrace(traceId).Where(a => a.Source.Name == source)];
    }

    /// <summary>Every stopped span of a source, any trace.</summary>
    public IReadOnlyList<Activity> Of(string source) => [.. _stopped.Where(a => a.Source.Name == source)];

    public void Dispose() => _listener.Dispose();
}
