using System.Diagnostics;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest;

/// <summary>
/// The stalled-client case (<c>--stalled-client</c>): against a router process with an echo provider and one
/// well-behaved closed-loop caller, one more connection writes calls and never reads. The router's resident memory
/// is sampled every 20 ms: its rise over the level just before the stalled client started is what one misbehaving
/// connection costs. The router is expected to drop that connection at <c>max_outbound_buffer_size</c> and to keep
/// answering the well-behaved caller, every call with its own payload.
/// </summary>
public static class StalledClientRun
{
    private static readonly TimeSpan SampleEvery = TimeSpan.FromMilliseconds(20);

    /// <summary>Runs the case; it ends <see cref="LoadOptions.Duration"/> after the stalled client started (plus grace for the caller's last call).</summary>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(90));
        var callerOptions = options.Clone();
        callerOptions.Mode = LoadMode.Closed;
        callerOptions.Connections = 1;
        var (target, probe) = await LoadTarget.StartProcessCaseAsync(callerOptions, "stalled-client", cancellationToken).ConfigureAwait(false);
        await using var targetLifetime = target.ConfigureAwait(false);
        progress?.WriteLine($"stalled client: router {target.ProcessCommand}, {options.PayloadBytes} B calls to {options.StalledMethod}, {options.Duration.TotalSeconds:0.#} s");

        var provider = options.Provider == ClientKind.Client
            ? (IEchoProvider)await ClientEchoProvider.StartAsync(target.EndPoint, "echo-stalled-case", options.PayloadBytes, setup.Token).ConfigureAwait(false)
            : await RawEchoProvider.StartAsync(target.EndPoint, "echo-stalled-case", options.PayloadBytes + 128, setup.Token).ConfigureAwait(false);
        await using var providerLifetime = provider.ConfigureAwait(false);
        var connect = await RawCaller.ConnectAsync(target.EndPoint, new EchoPayload(64, 0), 1, setup.Token).ConfigureAwait(false);
        using var stalled = await StalledClient.ConnectAsync(target.EndPoint, new EchoPayload(options.PayloadBytes, 1), options.StalledMethod, setup.Token).ConfigureAwait(false);

        var clock = new RunClock(options.Warmup, options.Duration, options.Grace);
        var caller = connect(clock);
        await using var callerLifetime = caller.ConfigureAwait(false);
        using var hardStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        hardStop.CancelAfter(clock.UntilHardStop);
        var calling = caller.RunAsync(hardStop.Token);

        // Warm-up: the well-behaved caller alone, so the baseline is a router that has served calls.
        await Task.WhenAny(calling, Task.Delay(options.Warmup, cancellationToken)).ConfigureAwait(false);
        var cpuStart = probe.CpuTime();
        var baseline = probe.Rss();
        probe.ResetPeak();
        var peak = baseline;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        stop.CancelAfter(options.Duration);
        var started = Stopwatch.GetTimestamp();
        var sending = stalled.SendUntilDroppedAsync(stop.Token);
        var droppedAt = 0L;
        while (!stop.IsCancellationRequested)
        {
            peak = Math.Max(peak, probe.Rss());
            if (droppedAt == 0 && sending.IsCompleted)
            {
                droppedAt = Stopwatch.GetTimestamp();
                progress?.WriteLine($"  dropped after {Stopwatch.GetElapsedTime(started, droppedAt).TotalSeconds:0.00} s, {stalled.BytesSent / 1e6:0.0} MB written; RSS peak so far {peak / 1e6:0.0} MB (baseline {baseline / 1e6:0.0} MB)");
            }

            try
            {
                await Task.Delay(SampleEvery, stop.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                break;
            }
        }

        var dropped = await sending.ConfigureAwait(false);
        await calling.ConfigureAwait(false);
        peak = Math.Max(peak, probe.PeakRss());
        var ledger = caller.Ledgers[0];
        var served = ledger.Sent > 0 && ledger.Answered == ledger.Sent && ledger.Errors == 0;
        var cpu = probe.CpuTime() - cpuStart;
        var seconds = Stopwatch.GetElapsedTime(started, dropped && droppedAt != 0 ? droppedAt : Stopwatch.GetTimestamp()).TotalSeconds;
        return report with
        {
            StalledClient = new StalledClientReport
            {
                Router = target.DescribeProcess(probe, cpu, options.Duration),
                PayloadBytes = options.PayloadBytes,
                Method = options.StalledMethod,
                BaselineRssMb = LoadRunner.Megabytes(baseline),
                PeakRssMb = LoadRunner.Megabytes(peak),
                RiseMb = LoadRunner.Megabytes(peak - baseline),
                Dropped = dropped,
                Seconds = Math.Round(seconds, 2),
                CallsSent = stalled.CallsSent,
                BytesSent = stalled.BytesSent,
                OthersServed = served,
                OtherCalls = ledger.Sent,
                Problem = served ? null : ledger.FirstProblem ?? ledger.Failure ?? "the well-behaved caller made no calls",
            },
        };
    }
}
