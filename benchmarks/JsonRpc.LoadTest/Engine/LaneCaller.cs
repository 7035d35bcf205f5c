namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A caller connection driven through a client library: as many concurrent call loops ("lanes") on one connection
/// as the window, each awaiting its call before the next, each with its own ledger (the latencies go to histograms per thread, shared by the lanes). Lane l stamps call n as
/// l x <see cref="LaneStride"/> + n, so that lanes never share a payload and an answer delivered to the wrong lane
/// is a mismatch.
/// </summary>
internal abstract class LaneCaller : ICaller
{
    protected const long LaneStride = 1_000_000_000;
    private readonly CallLedger[] _lanes;

    protected LaneCaller(EchoPayload payload, int window, RunClock clock)
    {
        Payload = payload;
        Clock = clock;
        _lanes = new CallLedger[window];
        var latency = new ThreadLocal<LatencyHistogram>(() => new LatencyHistogram(), trackAllValues: true);
        for (var lane = 0; lane < window; lane++)
        {
            _lanes[lane] = new CallLedger(1, payload, clock, latency);
        }
    }

    public IReadOnlyList<CallLedger> Ledgers => _lanes;

    protected EchoPayload Payload { get; }

    protected RunClock Clock { get; }

    public Task RunAsync(CancellationToken hardStop)
    {
        var lanes = new Task[_lanes.Length];
        for (var lane = 0; lane < lanes.Length; lane++)
        {
            lanes[lane] = RunLaneAsync(lane, _lanes[lane], hardStop);
        }

        return Task.WhenAll(lanes);
    }

    /// <summary>One lane's loop: calls until the measured window ends, each answer checked into <paramref name="ledger"/>.</summary>
    protected abstract Task RunLaneAsync(int lane, CallLedger ledger, CancellationToken hardStop);

    public abstract ValueTask DisposeAsync();
}
