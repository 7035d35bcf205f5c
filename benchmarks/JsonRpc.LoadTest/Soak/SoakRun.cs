using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Hostile;
using JsonRpc.LoadTest.Report;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Soak;

/// <summary>
/// The soak with faults (<c>--soak SECONDS</c>): a cluster of two router processes on a nats-server, echo providers on
/// both nodes, raw and JsonRpcClient callers on node A making calls, batches and cancellations, a publisher and
/// subscribers on both nodes, for the whole time, while faults come on a schedule that repeats every
/// <see cref="Cycle"/>: a provider killed and started again, node B killed and started again, nats-server restarted,
/// hostile connections (one of each kind at once) for a while, callers disconnecting mid-call. Node A is sampled every
/// second.
/// </summary>
public static class SoakRun
{
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(10);

    // The faults of one round (see InjectAsync).
    private const int FaultsPerRound = 6;

    /// <summary>One round of faults; a soak of 5 minutes has about five.</summary>
    public static TimeSpan Cycle(TimeSpan soak) => soak >= TimeSpan.FromMinutes(20) ? TimeSpan.FromMinutes(2) : TimeSpan.FromSeconds(60);

    public static async Task<SoakReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var soak = options.Soak ?? throw new ArgumentException("--soak is not set.", nameof(options));
        var warmup = options.Warmup;
        var startedAt = DateTimeOffset.UtcNow;
        var tally = new SoakTally();
        var faults = new List<SoakFault>();
        var samples = new List<SoakSample>();
        var clock = Stopwatch.StartNew();
        double Now() => Math.Round(clock.Elapsed.TotalSeconds, 1);

        await using var cluster = await SoakCluster.StartAsync(options.RouterPath!, CallTimeout, cancellationToken).ConfigureAwait(false);
        var probe = cluster.NodeA.Probe;
        progress?.WriteLine($"soak: {soak.TotalSeconds:0} s, faults every {Cycle(soak).TotalSeconds:0} s; node A {cluster.EndPointA}, node B {cluster.EndPointB}");

        // Node A's provider and node B's, replaced when a fault kills one.
        SoakProvider[] providers =
        [
            await SoakProvider.StartAsync(cluster.EndPointA, ProviderName(0), cancellationToken).ConfigureAwait(false),
            await SoakProvider.StartAsync(cluster.EndPointB, ProviderName(1), cancellationToken).ConfigureAwait(false),
        ];
        await using var deaf = await DeafProvider.StartAsync(cluster.EndPointA, cancellationToken).ConfigureAwait(false);
        await using var subscriberA = await Subscribe(cluster.EndPointA, tally, cancellationToken).ConfigureAwait(false);
        await using var subscriberB = await Subscribe(cluster.EndPointB, tally, cancellationToken).ConfigureAwait(false);
        await using var publisher = await Connect(cluster.EndPointA, reconnect: true, cancellationToken).ConfigureAwait(false);

        using var stopSending = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        using var hardStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var rawCallers = Enumerable.Range(0, 4).Select(i => new SoakRawCaller(cluster.EndPointA, i, tally)).ToArray();
        var work = new List<Task>();
        work.AddRange(rawCallers.Select(c => c.RunAsync(stopSending.Token, hardStop.Token)));
        var clientCallers = new List<JsonRpcClient>();
        for (var i = 0; i < 2; i++)
        {
            var client = await Connect(cluster.EndPointA, reconnect: false, cancellationToken).ConfigureAwait(false);
            clientCallers.Add(client);
            work.Add(ClientCallsAsync(client, i, tally, stopSending.Token));
        }

        work.Add(PublishAsync(publisher, tally, stopSending.Token));
        var sampling = SampleAsync(probe, tally, samples, clock, stopSending.Token);
        var injecting = InjectAsync(cluster, rawCallers, providers, faults, Now, Cycle(soak), warmup, progress, stopSending.Token);

        try
        {
            await Task.Delay(soak, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            await stopSending.CancelAsync().ConfigureAwait(false);
        }

        // The last answers: every call made gets one within the call timeout (plus margin), or it is lost.
        hardStop.CancelAfter(CallTimeout + TimeSpan.FromSeconds(15));
        await injecting.ConfigureAwait(false);
        var finishing = Task.WhenAll(work);
        await Task.WhenAny(finishing, Task.Delay(CallTimeout + TimeSpan.FromSeconds(20), CancellationToken.None)).ConfigureAwait(false);
        if (!finishing.IsCompleted)
        {
            tally.Add(ref tally.ClientHung, work.Count(t => !t.IsCompleted));
        }

        await sampling.ConfigureAwait(false);
        foreach (var client in clientCallers)
        {
            await client.DisposeAsync().ConfigureAwait(false);
        }

        foreach (var provider in providers)
        {
            await provider.DisposeAsync().ConfigureAwait(false);
        }
        return Report(startedAt, cluster.Description, soak, warmup, options.SoakSettle ?? soak / 6, tally, faults, samples);
    }

    private static SoakReport Report(DateTimeOffset startedAt, string router, TimeSpan soak, TimeSpan warmup, TimeSpan settle,
        SoakTally tally, List<SoakFault> faults, List<SoakSample> samples)
    {
        // The router's state is periodic (a round of faults every cycle, hostile connections among them), so RSS is
        // compared over whole rounds, not over minutes that may or may not hold a hostile phase. After warm-up: the
        // first whole round that starts once the warm-up and the settle time (--soak-settle, a sixth of the run unless
        // given: the GC has then seen every kind of fault several times over) have passed; at the end: the last whole
        // round. The first whole round of faults is reported too, so that the rise before settling is seen.
        var roundStarts = faults.Where((_, i) => i % FaultsPerRound == 0).Select(f => f.AtSeconds).ToList();
        var settleAfter = Math.Max(warmup.TotalSeconds, settle.TotalSeconds);
        var firstRound = roundStarts.FindIndex(start => start >= settleAfter);
        var lastRound = roundStarts.Count - 2; // the last round that has a next one, so whole
        (double From, double To) after, end;
        if (firstRound >= 0 && lastRound > firstRound)
        {
            after = (roundStarts[firstRound], roundStarts[firstRound + 1]);
            end = (roundStarts[lastRound], roundStarts[lastRound + 1]);
        }
        else
        {
            // Too short for two whole rounds after warm-up: the minute after the first round, and the last minute.
            var window = Math.Min(60, Math.Max(10, (soak - warmup).TotalSeconds / 5));
            var settledAt = faults.Count > FaultsPerRound ? faults[FaultsPerRound].AtSeconds : (warmup + Cycle(soak)).TotalSeconds;
            after = (settledAt, settledAt + window);
            end = (soak.TotalSeconds - window, soak.TotalSeconds + 1);
        }

        var settled = TimeSpan.FromSeconds(after.From);
        var afterWarmup = samples.Where(s => s.AtSeconds >= after.From && s.AtSeconds < after.To).ToList();
        var atEnd = samples.Where(s => s.AtSeconds >= end.From && s.AtSeconds < end.To).ToList();
        double Mean(List<SoakSample> list, Func<SoakSample, double> value) => list.Count == 0 ? 0 : Math.Round(list.Average(value), 1);
        var rssAfter = Mean(afterWarmup, s => s.RssMb);
        var firstFaults = roundStarts.Count > 1
            ? samples.Where(s => s.AtSeconds >= roundStarts[0] && s.AtSeconds < roundStarts[1]).ToList()
            : [];
        var rssEnd = Mean(atEnd, s => s.RssMb);
        return new SoakReport
        {
            StartedAt = startedAt,
            Machine = SystemMetrics.DescribeMachine(),
            Router = router,
            Seconds = Math.Round(soak.TotalSeconds),
            WarmupSeconds = warmup.TotalSeconds,
            SettleSeconds = settleAfter,
            RssFirstRoundMb = Mean(firstFaults, s => s.RssMb),
            SettledAtSeconds = settled.TotalSeconds,
            AfterWarmupUntilSeconds = after.To,
            EndFromSeconds = end.From,
            EndUntilSeconds = Math.Min(end.To, soak.TotalSeconds),
            RssAtStartMb = samples.Count == 0 ? 0 : samples[0].RssMb,
            Faults = faults,
            Sent = tally.Sent,
            Results = tally.Results,
            Errors = tally.Errors,
            Abandoned = tally.Abandoned,
            Lost = tally.Lost,
            LostWithConnection = tally.LostWithConnection,
            Mismatches = tally.Mismatches,
            Strays = tally.Strays,
            Notices = tally.Notices,
            ConnectFailures = tally.ConnectFailures,
            ErrorCodes = tally.ErrorCodes.OrderBy(p => p.Key).ToDictionary(p => p.Key.ToString(CultureInfo.InvariantCulture), p => p.Value),
            ClientCalls = tally.ClientCalls,
            ClientResults = tally.ClientResults,
            ClientErrors = tally.ClientErrors,
            ClientCancelled = tally.ClientCancelled,
            ClientConnectionLost = tally.ClientConnectionLost,
            ClientMismatches = tally.ClientMismatches,
            ClientTimedOut = tally.ClientTimedOut,
            ClientHung = tally.ClientHung,
            EventsPublished = tally.EventsPublished,
            EventsReceived = tally.EventsReceived,
            RssAfterWarmupMb = rssAfter,
            RssAtEndMb = rssEnd,
            RssChange = rssAfter > 0 ? Math.Round((rssEnd - rssAfter) / rssAfter, 3) : 0,
            ThreadsAfterWarmup = Mean(afterWarmup, s => s.Threads),
            ThreadsAtEnd = Mean(atEnd, s => s.Threads),
            HandlesAfterWarmup = Mean(afterWarmup, s => s.Handles),
            HandlesAtEnd = Mean(atEnd, s => s.Handles),
            Samples = samples,
        };
    }

    /// <summary>The faults, round after round, until <paramref name="stop"/>; the first round starts after warm-up.</summary>
    private static async Task InjectAsync(SoakCluster cluster, SoakRawCaller[] callers, SoakProvider[] providers, List<SoakFault> faults, Func<double> now, TimeSpan cycle, TimeSpan warmup, TextWriter? progress, CancellationToken stop)
    {
        var step = cycle / 6;
        var kinds = Enum.GetValues<HostileKind>();
        try
        {
            await Task.Delay(warmup, stop).ConfigureAwait(false);
            for (var round = 0; !stop.IsCancellationRequested; round++)
            {
                await Fault("provider B killed, started again 3 s later", () => RestartProviderAsync(1)).ConfigureAwait(false);
                await Task.Delay(step, stop).ConfigureAwait(false);

                await Fault("node B killed (SIGKILL), started again 3 s later", () => cluster.RestartNodeBAsync(TimeSpan.FromSeconds(3), stop)).ConfigureAwait(false);
                await Task.Delay(step, stop).ConfigureAwait(false);

                await Fault("nats-server restarted (down 2 s)", () => cluster.RestartNatsAsync(TimeSpan.FromSeconds(2), stop)).ConfigureAwait(false);
                await Task.Delay(step, stop).ConfigureAwait(false);

                await FaultWithOutcome($"hostile connections, one of each kind, for {step.TotalSeconds:0} s", async () =>
                {
                    var hostile = kinds.Select(kind => new HostileClient(kind, cluster.EndPointA, JsonRpc.Framing.JsonRpcFramer.DefaultMaxMessageSize)).ToArray();
                    using var over = CancellationTokenSource.CreateLinkedTokenSource(stop);
                    over.CancelAfter(step);
                    await Task.WhenAll(hostile.Select(h => h.RunAsync(over.Token))).ConfigureAwait(false);
                    return HostileClient.Describe(hostile);
                }).ConfigureAwait(false);

                await Fault("two callers disconnect mid-call and connect again", () =>
                {
                    callers[round % callers.Length].Disconnect();
                    callers[(round + 1) % callers.Length].Disconnect();
                    return Task.CompletedTask;
                }).ConfigureAwait(false);
                await Task.Delay(step, stop).ConfigureAwait(false);

                await Fault("provider A killed, started again 3 s later", () => RestartProviderAsync(0)).ConfigureAwait(false);
                await Task.Delay(step, stop).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }

        async Task RestartProviderAsync(int node)
        {
            await providers[node].DisposeAsync().ConfigureAwait(false);
            await Task.Delay(TimeSpan.FromSeconds(3), stop).ConfigureAwait(false);
            providers[node] = await SoakProvider.StartAsync(node == 0 ? cluster.EndPointA : cluster.EndPointB, ProviderName(node), stop).ConfigureAwait(false);
        }

        async Task Fault(string kind, Func<Task> inject) => await FaultWithOutcome(kind, async () =>
        {
            await inject().ConfigureAwait(false);
            return "done";
        }).ConfigureAwait(false);

        async Task FaultWithOutcome(string kind, Func<Task<string>> inject)
        {
            var at = now();
            string outcome;
            try
            {
                outcome = await inject().ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                throw;
            }
            catch (Exception ex)
            {
                outcome = $"failed: {ex.GetType().Name}: {ex.Message}";
            }

            lock (faults)
            {
                faults.Add(new SoakFault(at, kind, outcome));
            }

            progress?.WriteLine($"  {at,7:0.0} s  {kind}: {outcome}");
        }
    }

    private static string ProviderName(int node) => node == 0 ? "soak-provider-a" : "soak-provider-b";

    /// <summary>Node A's RSS, threads and handles, and the callers' answers and latencies, once a second.</summary>
    private static async Task SampleAsync(ProcessProbe probe, SoakTally tally, List<SoakSample> samples, Stopwatch clock, CancellationToken stop)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        var last = clock.Elapsed;
        try
        {
            while (await timer.WaitForNextTickAsync(stop).ConfigureAwait(false))
            {
                var (answers, latencies) = tally.TakeInterval();
                var elapsed = clock.Elapsed;
                var seconds = (elapsed - last).TotalSeconds;
                last = elapsed;
                latencies.Sort();
                samples.Add(new SoakSample(
                    Math.Round(elapsed.TotalSeconds, 1),
                    Math.Round(probe.Rss() / 1048576.0, 1),
                    probe.Threads(),
                    probe.Handles(),
                    Math.Round(answers / seconds),
                    Percentile(latencies, 0.50),
                    Percentile(latencies, 0.99)));
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private static double Percentile(List<double> sorted, double p)
        => sorted.Count == 0 ? 0 : Math.Round(sorted[Math.Min(sorted.Count - 1, (int)(p * sorted.Count))], 2);

    /// <summary>Echo calls, and every fifth a slow call cancelled after 20 ms, one at a time, until <paramref name="stop"/>.</summary>
    private static async Task ClientCallsAsync(JsonRpcClient client, int index, SoakTally tally, CancellationToken stop)
    {
        for (long n = 0; !stop.IsCancellationRequested; n++)
        {
            var cancel = n % 5 == 4;
            var payload = $"client-{index}-{n}";
            using var cancellation = new CancellationTokenSource();
            if (cancel)
            {
                cancellation.CancelAfter(20);
            }

            tally.Add(ref tally.ClientCalls);
            var started = Stopwatch.GetTimestamp();
            try
            {
                var @params = "[" + JsonSerializer.Serialize(payload, SoakJson.Default.String) + "]";
                var result = await client.CallAsync(cancel ? SoakProvider.Slow : EchoPayload.Method, RawJson.Parse(@params), cancellation.Token).ConfigureAwait(false);
                if (result.ToString() == @params)
                {
                    tally.Add(ref tally.ClientResults);
                    tally.ClientAnswered(Stopwatch.GetElapsedTime(started));
                }
                else
                {
                    tally.Add(ref tally.ClientMismatches);
                }
            }
            catch (OperationCanceledException) when (cancellation.IsCancellationRequested)
            {
                tally.Add(ref tally.ClientCancelled);
            }
            catch (JsonRpcRemoteException)
            {
                tally.Add(ref tally.ClientErrors);
            }
            catch (TimeoutException ex) when (ex.Message.StartsWith("The call '", StringComparison.Ordinal))
            {
                // Sent, and no answer within the router's call timeout and 5 s more: an answer lost (JsonRpcClient's
                // other timeouts, waiting for a connection, never sent the call).
                tally.Add(ref tally.ClientTimedOut);
            }
            catch (Exception ex) when (ex is JsonRpcConnectionLostException or IOException or TimeoutException or InvalidOperationException)
            {
                tally.Add(ref tally.ClientConnectionLost);
            }

            try
            {
                await Task.Delay(2, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private static async Task PublishAsync(JsonRpcClient publisher, SoakTally tally, CancellationToken stop)
    {
        for (long n = 0; !stop.IsCancellationRequested; n++)
        {
            try
            {
                await publisher.PublishAsync(SoakProvider.Event, RawJson.Parse(n.ToString(CultureInfo.InvariantCulture)), stop).ConfigureAwait(false);
                tally.Add(ref tally.EventsPublished);
                await Task.Delay(10, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
            catch (Exception ex) when (ex is JsonRpcConnectionLostException or IOException or TimeoutException or InvalidOperationException)
            {
                await Task.Delay(100, CancellationToken.None).ConfigureAwait(false);
            }
        }
    }

    private static async Task<JsonRpcClient> Subscribe(EndPoint endPoint, SoakTally tally, CancellationToken cancellationToken)
    {
        var client = await Connect(endPoint, reconnect: true, cancellationToken).ConfigureAwait(false);
        await client.RegisterAsync($"soak-subscriber-{((IPEndPoint)endPoint).Port}", cancellationToken).ConfigureAwait(false);
        await client.SubscribeAsync(SoakProvider.Event, _ => tally.Add(ref tally.EventsReceived), cancellationToken).ConfigureAwait(false);
        return client;
    }

    internal static Task<JsonRpcClient> Connect(EndPoint endPoint, bool reconnect, CancellationToken cancellationToken)
    {
        var ip = (IPEndPoint)endPoint;
        return JsonRpcClient.ConnectAsync(ip.Address.ToString(), ip.Port, new JsonRpcClientOptions
        {
            CallTimeout = CallTimeout + TimeSpan.FromSeconds(5),
            Reconnect = new JsonRpcReconnectOptions { Enabled = reconnect, InitialDelay = TimeSpan.FromMilliseconds(100), MaxDelay = TimeSpan.FromSeconds(1) },
        }, cancellationToken);
    }

    /// <summary>Writes soak.json, samples.csv, soak.png and a summary into <paramref name="folder"/>.</summary>
    public static void Save(SoakReport report, string folder)
    {
        ArgumentNullException.ThrowIfNull(report);
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "soak.json"), JsonSerializer.Serialize(report, SoakReportJsonContext.Default.SoakReport) + "\n");
        var csv = new StringBuilder("seconds,rss_mb,threads,handles,calls_per_second,p50_ms,p99_ms\n");
        foreach (var s in report.Samples)
        {
            csv.Append(CultureInfo.InvariantCulture, $"{s.AtSeconds},{s.RssMb},{s.Threads},{s.Handles},{s.CallsPerSecond},{s.P50Ms},{s.P99Ms}\n");
        }

        File.WriteAllText(Path.Combine(folder, "samples.csv"), csv.ToString());
        Charts.SoakChart.Save(report, Path.Combine(folder, "soak.png"));
    }
}
