using System.Diagnostics;
using System.Net;
using JsonRpc.Client;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest.Hostile;

/// <summary>
/// The hostile-connections case (<c>--hostile KINDS --hostile-count N</c>): against a router process with an echo
/// provider and a provider that never answers (<c>hold</c>), innocent closed-loop callers run twice for
/// <see cref="LoadOptions.Duration"/>: first alone, then beside N hostile connections (the kinds taken in turn). The
/// router's resident memory is sampled every 20 ms during the second phase; its rise over the idle RSS between the
/// phases is what the hostile connections cost. The innocent callers' calls/s in the second phase over the first is
/// what they kept, and every one of their calls must be answered once, with its own payload.
/// </summary>
public static class HostileRun
{
    private static readonly TimeSpan SampleEvery = TimeSpan.FromMilliseconds(20);

    /// <summary>Runs the case; about warm-up + 2 × duration + a few seconds.</summary>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(90));
        var callerOptions = options.Clone();
        callerOptions.Mode = LoadMode.Closed;
        var (target, probe) = await LoadTarget.StartProcessCaseAsync(callerOptions, "hostile", cancellationToken).ConfigureAwait(false);
        await using var targetLifetime = target.ConfigureAwait(false);
        var kinds = options.HostileKinds;
        var clients = Enumerable.Range(0, options.HostileCount)
            .Select(i => new HostileClient(kinds[i % kinds.Count], target.EndPoint, RouterLimits.For(options).MaxMessageSize)).ToList();
        progress?.WriteLine($"hostile: router {target.ProcessCommand}; {clients.Count} hostile ({string.Join(", ", clients.Select(c => HostileClient.Name(c.Kind)))}); {options.Connections} innocent callers, {options.PayloadBytes} B, {options.Duration.TotalSeconds:0.#} s a phase");

        await using var echo = await ClientEchoProvider.StartAsync(target.EndPoint, "echo-hostile-case", options.PayloadBytes, setup.Token).ConfigureAwait(false);
        await using var deaf = await DeafProvider.StartAsync(target.EndPoint, setup.Token).ConfigureAwait(false);

        // Phase 1: the innocent callers alone (after a warm-up), then the router idle: its idle RSS.
        var baseline = await RunInnocentAsync(target.EndPoint, options, options.Warmup, cancellationToken).ConfigureAwait(false);
        progress?.WriteLine($"  alone: {baseline.CallsPerSecond:N0} calls/s");
        await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken).ConfigureAwait(false);
        var idle = probe.Rss();
        probe.ResetPeak();
        var cpuStart = probe.CpuTime();

        // Phase 2: the same callers beside the hostile connections, which start one second before the callers' window.
        using var stopHostile = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var hostile = clients.Select(c => c.RunAsync(stopHostile.Token)).ToArray();
        var peak = idle;
        using var sampling = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var sampler = Task.Run(async () =>
        {
            while (!sampling.IsCancellationRequested)
            {
                peak = Math.Max(peak, probe.Rss());
                try
                {
                    await Task.Delay(SampleEvery, sampling.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }, CancellationToken.None);
        var beside = await RunInnocentAsync(target.EndPoint, options, TimeSpan.FromSeconds(1), cancellationToken).ConfigureAwait(false);
        await stopHostile.CancelAsync().ConfigureAwait(false);
        await Task.WhenAll(hostile).ConfigureAwait(false);
        await sampling.CancelAsync().ConfigureAwait(false);
        await sampler.ConfigureAwait(false);
        peak = Math.Max(peak, probe.PeakRss());
        progress?.WriteLine($"  beside the hostile: {beside.CallsPerSecond:N0} calls/s; {HostileClient.Describe(clients)}");

        var cpu = probe.CpuTime() - cpuStart;
        var problem = baseline.Problem ?? beside.Problem;
        return report with
        {
            Hostile = new HostileReport
            {
                Router = target.DescribeProcess(probe, cpu, options.Duration),
                Clients = [.. clients.Select(c => new HostileClientReport { Kind = HostileClient.Name(c.Kind), BytesSent = c.BytesSent, Drops = c.Drops, ErrorsReceived = c.ErrorsReceived })],
                IdleRssMb = LoadRunner.Megabytes(idle),
                PeakRssMb = LoadRunner.Megabytes(peak),
                RiseMb = LoadRunner.Megabytes(peak - idle),
                RiseLimitMb = clients.Count <= 1 ? 64 * 1.048576 : 256 * 1.048576,
                BaselineCallsPerSecond = Math.Round(baseline.CallsPerSecond),
                HostileCallsPerSecond = Math.Round(beside.CallsPerSecond),
                ThroughputKept = baseline.CallsPerSecond > 0 ? Math.Round(beside.CallsPerSecond / baseline.CallsPerSecond, 3) : 0,
                InnocentCalls = baseline.Calls + beside.Calls,
                InnocentServed = problem is null,
                Problem = problem,
            },
        };
    }

    /// <summary>Fresh innocent callers for one phase (closed loop): a warm-up, the measured window, and a grace for the last answers.</summary>
    private static Task<CallerPhaseResult> RunInnocentAsync(EndPoint endPoint, LoadOptions options, TimeSpan warmup, CancellationToken cancellationToken)
        => CallerPhase.RunAsync(endPoint, options, 1, new RunClock(warmup, options.Duration, options.Grace), cancellationToken);
}

/// <summary>A provider of <see cref="HostileClient.HoldMethod"/> that never answers (until the router cancels the call).</summary>
internal sealed class DeafProvider : IAsyncDisposable
{
    private readonly JsonRpcClient _client;

    private DeafProvider(JsonRpcClient client) => _client = client;

    public static async Task<DeafProvider> StartAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var client = await ClientConnections.ConnectAsync(endPoint, 1024, cancellationToken).ConfigureAwait(false);
        try
        {
            client.AddRawMethod(HostileClient.HoldMethod, static async (parameters, ct) =>
            {
                await Task.Delay(Timeout.Infinite, ct).ConfigureAwait(false);
                return parameters;
            });
            await client.RegisterAsync("deaf-provider", cancellationToken).ConfigureAwait(false);
            return new DeafProvider(client);
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public ValueTask DisposeAsync() => _client.DisposeAsync();
}
