using System.Text.Json;
using System.Text.RegularExpressions;
using JsonRpc.LoadTest;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;
using JsonRpc.Server.Tests.Infrastructure;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The load generator (benchmarks/JsonRpc.LoadTest): its engine against a real in-process router, its report and plot.
/// Runs alone (its own collection, parallelization off), so that its bursts of full load never starve the timing of
/// other tests.
/// </summary>
[Collection(LoadGeneratorTests.Collection)]
public sealed partial class LoadGeneratorTests(ITestOutputHelper output)
{
    public const string Collection = "LoadGenerator";

    [Theory]
    [InlineData("--mode closed", 2)] // the default: raw and JsonRpcClient callers, one run each
    [InlineData("--mode pipelined --window 8 --caller raw --provider raw", 1)]
    [InlineData("--mode pipelined --window 8 --caller client --direct", 1)]
    public async Task RunAsync_TwoConnectionsForOneSecond_EveryCallAnsweredOnceAndReportComplete(string workload, int runs)
    {
        var options = LoadOptions.Parse([.. workload.Split(' '), "--connections", "2", "--duration", "1", "--warmup", "0.2", "--grace", "5", "--payload", "64"]);
        var progress = new StringWriter();
        var report = await LoadRunner.RunAsync(options, progress).WaitAsync(TimeSpan.FromSeconds(60));
        output.WriteLine(progress.ToString());
        Assert.Equal(runs, report.Runs.Count);
        Assert.True(report.AllCorrect);
        foreach (var run in report.Runs)
        {
            AssertRun(run, options.Direct);
        }

        AssertJson(report);
        Assert.Contains("calls/s", progress.ToString(), StringComparison.Ordinal);
    }

    // The StreamJsonRpc server reads through StreamJsonRpcNewline, which works around StreamJsonRpc's newline handler
    // freeing a line before its arguments are read (before it, 2 runs in 3 had a call answered -32602).
    [Fact]
    public async Task RunAsync_DirectWithStreamJsonRpcPeer_OursThenStreamJsonRpcEachAnswerEveryCallOnce()
    {
        // A StreamJsonRpc server's first call in a process takes a second or more on a loaded machine (its reflection
        // over the target, its serializer options); the warm-up covers it, as in real runs.
        var options = LoadOptions.Parse(["--direct", "--peer", "streamjsonrpc", "--mode", "pipelined", "--window", "4", "--caller", "both",
            "--connections", "2", "--duration", "1", "--warmup", "3", "--grace", "10", "--payload", "64"]);
        var progress = new StringWriter();
        var report = await LoadRunner.RunAsync(options, progress).WaitAsync(TimeSpan.FromSeconds(120));
        output.WriteLine(progress.ToString());
        Assert.Equal(["ours/raw", "ours/client", "streamjsonrpc/raw", "streamjsonrpc/client"], report.Runs.Select(run => $"{run.Implementation}/{run.Caller}"));
        Assert.True(report.AllCorrect);
        foreach (var run in report.Runs)
        {
            AssertAnsweredOnce(run);
        }

        // Our router counts what it served; StreamJsonRpc's server has no such counters.
        Assert.Equal(report.Runs[0].Correctness.CallsSent, report.Runs[0].Router!.ServerCalls);
        Assert.Null(report.Runs[2].Router);
        Assert.Contains("StreamJsonRpc 2.26.150", MarkdownTable.Server(report.Runs[2]), StringComparison.Ordinal);
    }

    [NatsFact]
    public async Task RunAsync_RoutedWithNatsPeer_NatsRequestsAnsweredOnceAndBrokerMeasured()
    {
        var options = LoadOptions.Parse(["--peer", "nats", "--mode", "pipelined", "--window", "4", "--caller", "client",
            "--connections", "2", "--duration", "1", "--warmup", "0.2", "--grace", "10", "--payload", "64"]);
        var progress = new StringWriter();
        var report = await LoadRunner.RunAsync(options, progress).WaitAsync(TimeSpan.FromSeconds(120));
        output.WriteLine(progress.ToString());
        Assert.Equal(["ours/client", "nats/nats"], report.Runs.Select(run => $"{run.Implementation}/{run.Caller}"));
        Assert.True(report.AllCorrect);
        foreach (var run in report.Runs)
        {
            AssertAnsweredOnce(run);
        }

        // nats-server was started by the tool for the run, as a process of its own: its CPU and memory are reported.
        var broker = report.Runs[1].ServerProcess;
        Assert.NotNull(broker);
        Assert.Contains("nats-server", broker.Command, StringComparison.Ordinal);
        Assert.True(broker.PeakRssMb > 1 && broker.CpuSeconds > 0, $"broker: {broker}");
        Assert.Equal("none", broker.Gc);
        Assert.Equal("nats", report.Runs[1].Provider);
        Assert.True(broker.CpuUsPerCall > 0, $"broker: {broker}");
        if (PerfFactAttribute.IsAvailable)
        {
            Assert.True(broker.SyscallsPerCall > 0 && broker.Syscalls > 0, $"broker: {broker}");
        }
    }

    [PerfFact]
    public async Task RunAsync_RouterProcess_ReportsItsSyscallsAndCpuPerCall()
    {
        var (report, router) = await RunRouterProcessAsync("--caller", "raw", "--provider", "raw", "--duration", "2", "--warmup", "0.5");
        Assert.Null(router.SyscallsUnavailable);
        Assert.False(report.Machine.InlineSocketCompletions); // .NET's default without --inline-io

        // A routed call is at least a read and a write on the caller's connection and the provider's: far more than
        // nothing, and far less than a thousand for a 64-byte message.
        Assert.True(router.SyscallsPerCall is > 0 and < 1000, $"router: {router}");
        Assert.True(router.Syscalls > 0 && router.CpuUsPerCall is > 0 and < 100_000, $"router: {router}");

        var text = new StringWriter();
        ReportPrinter.Print(report, text);
        Assert.Contains(" syscalls (", text.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task InlineIo_LoadGeneratorProcess_CallersRunOnTheSocketThreadsOtherwiseOnThePool(bool inline)
    {
        // The switch is read once per process, so the load generator runs as a process of its own, as users run it; what
        // its threads spend over the measured window (Linux's per-thread CPU ticks) shows where its callers ran: inline,
        // on .NET's socket threads, which otherwise only hand each completion to the pool's workers.
        var json = Path.Combine(Path.GetTempPath(), $"inline-io-{Guid.NewGuid():N}.json");
        string[] switches = inline ? ["--inline-io"] : [];
        await using var generator = ChildProcess.StartDotnet(LoadGeneratorDll,
            ["--router", RouterProcess.Dll, .. switches, "--caller", "client", "--mode", "pipelined", "--window", "8", "--connections", "2",
             "--payload", "64", "--duration", "3", "--warmup", "1", "--grace", "10", "--json", json]);
        try
        {
            await generator.WaitForLineAsync(MeasuringLine(), TimeSpan.FromSeconds(90));
            var before = ProcessThreads.Read(generator.Id);
            await generator.WaitForLineAsync(DrainingLine(), TimeSpan.FromSeconds(60));
            var after = ProcessThreads.Read(generator.Id);
            Assert.Equal(0, await generator.WaitForExitAsync(TimeSpan.FromSeconds(60)));
            output.WriteLine(generator.Output);

            var socket = ProcessThreads.Spent(before, after, ProcessThreads.SocketThread);
            var pool = ProcessThreads.Spent(before, after, ProcessThreads.PoolThread);
            output.WriteLine($"load generator CPU ticks over the measured window: socket threads {socket}, pool workers {pool}");
            Assert.True(inline ? socket > pool : pool > socket, $"inline {inline}: socket threads {socket} ticks, pool workers {pool}");
            Assert.Equal(inline, generator.StandardOutput.Contains("callers' socket completions inline", StringComparison.Ordinal));

            var report = JsonSerializer.Deserialize(File.ReadAllText(json), LoadReportJsonContext.Default.LoadReport);
            Assert.NotNull(report);
            Assert.Equal(inline, report.Machine.InlineSocketCompletions);
            var run = Assert.Single(report.Runs);
            Assert.Equal("client", run.Caller);
            AssertAnsweredOnce(run);
        }
        finally
        {
            File.Delete(json);
        }
    }

    [GeneratedRegex(@"\[measure\s+1/3s\]")]
    private static partial Regex MeasuringLine();

    [GeneratedRegex(@"\[draining")]
    private static partial Regex DrainingLine();

    private static string LoadGeneratorDll => RepositoryLayout.BuiltFile(Path.Combine("benchmarks", "JsonRpc.LoadTest"), "JsonRpc.LoadTest.dll");

    /// <summary>One run against a router process of its own (2 connections, 64 B): every call answered once, and its process's report.</summary>
    private async Task<(LoadReport Report, ServerProcessReport Router)> RunRouterProcessAsync(params string[] arguments)
    {
        var options = LoadOptions.Parse(["--router", RouterProcess.Dll, "--connections", "2", "--grace", "10", "--payload", "64", .. arguments]);
        var progress = new StringWriter();
        var report = await LoadRunner.RunAsync(options, progress).WaitAsync(TimeSpan.FromSeconds(120));
        output.WriteLine(progress.ToString());
        var run = Assert.Single(report.Runs);
        AssertAnsweredOnce(run);
        Assert.Equal("process", run.Target);
        Assert.Null(run.Router);
        Assert.NotNull(run.ServerProcess);
        return (report, run.ServerProcess);
    }

    [Fact]
    public async Task Streaming_RouterProcessBothStacks_EveryValueCheckedAndRouterCostPerValueAndBatchReported()
    {
        var options = LoadOptions.Parse(["--streaming", "--router", RouterProcess.Dll, "--streaming-stack", "both",
            "--connections", "2", "--stream-length", "200", "--prefetch", "16", "--duration", "1", "--warmup", "0.3", "--grace", "10"]);
        var progress = new StringWriter();
        var report = await StreamingRun.RunAsync(options, progress, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(180));
        output.WriteLine(progress.ToString());
        var streaming = report.Streaming!;
        Assert.Equal(["streamjsonrpc direct 0", "streamjsonrpc router 0", "streamjsonrpc direct 16", "streamjsonrpc router 16",
            "ours direct 0", "ours router 0", "ours direct 16", "ours router 16"], streaming.Runs.Select(run => $"{run.Stack} {run.Path} {run.Prefetch}"));
        Assert.True(report.AllCorrect, string.Join("; ", streaming.Runs.Select(run => run.Problem)));
        foreach (var run in streaming.Runs)
        {
            Assert.True(run.Values > 0 && run.Batches > 0, $"{run}");

            // Prefetch off, a pull carries one value (and the call none); on, up to 16 (a stream of 200 ends with a shorter batch).
            Assert.True(run.Prefetch == 0 ? run.ValuesPerBatch is > 0.9 and <= 1.01 : run.ValuesPerBatch is > 1 and <= 16, $"{run}");
            if (run.Path == "direct")
            {
                Assert.Null(run.RouterProcess);
                Assert.Null(run.RouterCpuUsPerValue);
                continue;
            }

            Assert.NotNull(run.RouterProcess);
            Assert.True(run.RouterCpuUsPerValue is > 0 and < 100_000 && run.RouterCpuUsPerBatch > 0, $"{run}");
            if (PerfFactAttribute.IsAvailable)
            {
                // A routed batch is at least the pull's receive and forward and the answer's receive and forward.
                Assert.True(run.RouterSyscallsPerBatch is > 1 and < 1000 && run.RouterSyscallsPerValue > 0, $"{run}");
            }
            else
            {
                Assert.Null(run.RouterSyscallsPerValue);
                Assert.NotNull(run.RouterProcess.SyscallsUnavailable);
            }
        }

        Assert.NotNull(streaming.RoutedSharePrefetch);
        Assert.NotNull(streaming.OursRoutedSharePrefetch);
        var text = new StringWriter();
        ReportPrinter.Print(report, text);
        Assert.Contains("us CPU", text.ToString(), StringComparison.Ordinal);
        Assert.Contains("ours router / direct", text.ToString(), StringComparison.Ordinal);
        Assert.Contains("\"router_cpu_us_per_batch\"", JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport), StringComparison.Ordinal);
    }

    [Fact]
    public void SyscallCounter_PerfOutput_CountAndRateOrPerfsOwnReason()
    {
        var counted = SyscallCounter.Parse("\n Performance counter stats for process id '42':\n\n             12345      raw_syscalls:sys_enter\n\n       2.000000000 seconds time elapsed\n\n");
        Assert.Null(counted.Unavailable);
        Assert.Equal(12345, counted.Count);
        Assert.Equal(6172.5, counted.PerSecond);

        var refused = SyscallCounter.Parse("Error:\nNo permission to enable raw_syscalls:sys_enter event.\n");
        Assert.Null(refused.PerSecond);
        Assert.Contains("No permission to enable", refused.Unavailable, StringComparison.Ordinal);

        var notCounted = SyscallCounter.Parse("\n Performance counter stats for process id '42':\n\n     <not counted>      raw_syscalls:sys_enter\n\n       2.000000000 seconds time elapsed\n");
        Assert.Null(notCounted.PerSecond);
        Assert.Contains("<not counted>", notCounted.Unavailable, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_RouterProcess_ServesEveryCallAndReportsItsCpuAndPeakRss()
    {
        var (report, router) = await RunRouterProcessAsync("--router-env", "DOTNET_gcServer=0", "--caller", "client", "--duration", "1", "--warmup", "0.2");
        var run = report.Runs[0];
        Assert.StartsWith("DOTNET_gcServer=0 dotnet ", router.Command, StringComparison.Ordinal);
        Assert.True(router.CpuSeconds > 0 && router.TotalCpuSeconds >= router.CpuSeconds, $"router CPU: {router}");
        Assert.True(router.StartRssMb > 1 && router.PeakRssMb >= router.StartRssMb, $"router memory: {router}");
        Assert.Equal("jit", router.Runtime);
        Assert.Equal("workstation", router.Gc);
        Assert.Contains("(workstation GC, DOTNET_gcServer=0)", MarkdownTable.Server(run), StringComparison.Ordinal);
    }

    [Fact]
    public async Task StalledClient_RouterProcess_DroppedWhileTheOtherCallerIsServed()
    {
        var options = LoadOptions.Parse(["--router", RouterProcess.Dll, "--stalled-client", "--payload", "1024",
            "--duration", "20", "--warmup", "0.5", "--grace", "10"]);
        var progress = new StringWriter();
        var report = await StalledClientRun.RunAsync(options, progress, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(120));
        output.WriteLine(progress.ToString());
        var stalled = report.StalledClient;
        Assert.NotNull(stalled);
        Assert.True(stalled.Dropped, $"the router did not drop a client that never reads: {stalled}");
        Assert.True(stalled.OthersServed, stalled.Problem);
        // The router reads it until half of the 16 MiB bound waits for it, then stops reading and drops it.
        Assert.True(stalled.OtherCalls > 0 && stalled.BytesSent > 8 * 1024 * 1024, $"{stalled}");
        Assert.True(stalled.BaselineRssMb > 1 && stalled.PeakRssMb >= stalled.BaselineRssMb, $"{stalled}");
        Assert.True(report.AllCorrect);
    }

    [Theory]
    [InlineData("non-reading")]
    [InlineData("batch-holding")]
    [InlineData("slowloris")]
    [InlineData("oversize")]
    [InlineData("deep-nesting")]
    public async Task Hostile_OneConnection_RouterRssRisesAtMost64MiB_InnocentCallsAllAnswered(string kind)
    {
        var report = await RunHostileAsync(kind, 1, duration: 4);
        var hostile = report.Hostile!;
        Assert.True(hostile.RiseMb <= 64 * 1.048576, $"one {kind} connection raised the router's RSS by {hostile.RiseMb} MB");
        Assert.True(hostile.InnocentServed, hostile.Problem);
        Assert.True(hostile.Clients[0].BytesSent > 0, "the hostile client sent nothing: the test proves nothing");
    }

    [Fact]
    public async Task Hostile_EightAtOnce_RouterRssRisesAtMost256MiB_InnocentCallsAllAnswered()
    {
        var report = await RunHostileAsync("all", 8, duration: 6);
        var hostile = report.Hostile!;
        Assert.Equal(8, hostile.Clients.Count);
        Assert.True(hostile.RiseMb <= 256 * 1.048576, $"eight hostile connections raised the router's RSS by {hostile.RiseMb} MB");
        Assert.True(hostile.InnocentServed, hostile.Problem);
        Assert.True(report.AllCorrect);
    }

    // The throughput the innocent callers keep (>= 80%) is a timing figure: the committed run shows it
    // (benchmarks/results/hostile), these tests check memory and that no innocent call is lost.
    private async Task<LoadReport> RunHostileAsync(string kinds, int count, int duration)
    {
        var options = LoadOptions.Parse(["--router", RouterProcess.Dll, "--hostile", kinds, "--hostile-count", count.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--connections", "2", "--payload", "100", "--duration", duration.ToString(System.Globalization.CultureInfo.InvariantCulture), "--warmup", "1", "--grace", "10"]);
        var progress = new StringWriter();
        var report = await JsonRpc.LoadTest.Hostile.HostileRun.RunAsync(options, progress, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(120));
        ReportPrinter.Print(report, progress);
        output.WriteLine(progress.ToString());
        Assert.NotNull(report.Hostile);
        Assert.True(report.Hostile.InnocentCalls > 0);
        return report;
    }

    // Counts only, never speed (the committed run, benchmarks/results/security/neighbour, shows the throughput kept):
    // the flood over its quota is refused at once with retry_after_ms, and no call of either side is lost or doubled.
    [Fact]
    public async Task Neighbour_FloodOverItsQuota_RefusedWithRetryAfterAndEveryCallAnsweredOnce()
    {
        var report = await RunNeighbourAsync("noisy-secret");
        var neighbour = report.Neighbour!;
        Assert.True(neighbour.Problem is null, neighbour.Problem);
        Assert.True(report.AllCorrect);
        var round = Assert.Single(neighbour.Rounds);
        Assert.Null(round.Alone.Flood);
        var flood = round.Flooded.Flood;
        Assert.NotNull(flood);
        Assert.True(flood.Refusals > 0 && flood.MinRetryAfterMs > 0, $"the flood over its quota was not refused with a retry_after_ms: {flood}");
        Assert.True(flood.RefusalsPerSecond > 0, $"no refusal in the measured window: {flood}");
        Assert.Equal(0, flood.Missing);
        Assert.Equal(0, flood.OtherErrors);
        Assert.Equal(flood.Calls, flood.Results + flood.Refusals);
        Assert.True(neighbour.FloodRefusals >= flood.Refusals && neighbour.FloodCalls >= flood.Calls, $"{neighbour}");
        Assert.True(neighbour.MeasuredCalls > 0 && round.Alone.CallsPerSecond > 0 && round.Flooded.CallsPerSecond > 0, $"{round}");
        Assert.Contains("| 1 | 2 x 1 in flight, 64 B |", MarkdownTableOf(report), StringComparison.Ordinal);
    }

    // The check has teeth: a flood whose identity has no quota is never refused, and the case says it shows nothing.
    [Fact]
    public async Task Neighbour_FloodWithoutQuota_FailsForWantOfRefusals()
    {
        var report = await RunNeighbourAsync("web-secret");
        Assert.Equal(0, report.Neighbour!.FloodRefusals);
        Assert.Contains("never refused", report.Neighbour.Problem, StringComparison.Ordinal);
        Assert.False(report.AllCorrect);
    }

    /// <summary>One round of 1 s phases against a router process with the case's security file; the flood authenticates with <paramref name="floodToken"/>.</summary>
    private async Task<LoadReport> RunNeighbourAsync(string floodToken)
    {
        var security = Path.Combine(RepositoryLayout.Root, "benchmarks", "results", "security", "neighbour", "security.json");
        var options = LoadOptions.Parse(["--router", RouterProcess.Dll, "--security-file", security, "--token", "web-secret", "--flood-token", floodToken,
            "--flood-connections", "2", "--flood-window", "16", "--rounds", "1", "--connections", "2", "--payload", "64",
            "--duration", "1", "--warmup", "0.5", "--grace", "10"]);
        var progress = new StringWriter();
        LoadAuth.Token = options.Token;
        try
        {
            var report = await JsonRpc.LoadTest.Neighbour.NeighbourRun.RunAsync(options, progress, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(120));
            ReportPrinter.Print(report, progress);
            AssertNeighbourJson(report);
            return report;
        }
        finally
        {
            LoadAuth.Token = null;
            output.WriteLine(progress.ToString());
        }
    }

    private static string MarkdownTableOf(LoadReport report)
    {
        var folder = Directory.CreateTempSubdirectory("neighbour-table-");
        try
        {
            File.WriteAllText(Path.Combine(folder.FullName, "neighbour.json"), JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport));
            return MarkdownTable.FromFolder(folder.FullName);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    private static void AssertNeighbourJson(LoadReport report)
    {
        using var json = JsonDocument.Parse(JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport));
        var neighbour = json.RootElement.GetProperty("neighbour");
        AssertFields(neighbour, "router", "rounds", "median_ratio", "measured_calls", "flood_calls", "flood_refusals", "problem");
        var round = neighbour.GetProperty("rounds")[0];
        AssertFields(round, "round", "alone", "flooded", "ratio");
        AssertFields(round.GetProperty("flooded"), "calls_per_second", "latency", "router", "router_cpu_us_per_answer", "cpu", "flood");
        AssertFields(round.GetProperty("flooded").GetProperty("flood"), "calls", "results", "refusals", "other_errors", "missing",
            "refusals_per_second", "results_per_second", "min_retry_after_ms", "max_retry_after_ms");
    }

    [Theory]
    [InlineData("--peer streamjsonrpc", "--direct")]
    [InlineData("--peer nats --direct", "--peer nats")]
    [InlineData("--nats-url nats://127.0.0.1:4222", "--peer nats")]
    [InlineData("--router x.dll --connect 127.0.0.1:1", "--router")]
    [InlineData("--router x.dll --direct", "--direct")]
    [InlineData("--router-env DOTNET_gcServer=0", "--router")]
    [InlineData("--inline-io", "--router")]
    [InlineData("--inline-io --direct", "--router")]
    [InlineData("--inline-io --connect 127.0.0.1:1 --direct", "--direct")]
    [InlineData("--stalled-client", "--router")]
    [InlineData("--hostile all", "--router")]
    [InlineData("--flood-token t", "--router")]
    [InlineData("--security-file s.json", "--router")]
    [InlineData("--rounds 2", "--flood-token")]
    [InlineData("--soak 60", "--router")]
    [InlineData("--hostile nonsense --router x.dll", "hostile kind")]
    [InlineData("--peer zeromq", "--peer")]
    public void Parse_PeerAndProcessOptionsThatDoNotGoTogether_ThrowWithTheReason(string arguments, string named)
    {
        var error = Assert.ThrowsAny<ArgumentException>(() => LoadOptions.Parse(arguments.Split(' ')));
        Assert.Contains(named, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LatencyHistogram_KnownValues_PercentilesWithinBucketPrecision()
    {
        var histogram = new LatencyHistogram();
        for (var v = 1; v <= 100_000; v++)
        {
            histogram.Record(v * 1000L); // 1 us .. 100 ms, evenly
        }

        Assert.Equal(100_000, histogram.Count);
        Assert.Equal(100_000_000, histogram.Max);
        Assert.Equal(50_000_500, histogram.Mean, 1.0);
        foreach (var (q, exact) in new[] { (0.5, 50_000_000L), (0.99, 99_000_000L), (0.999, 99_900_000L) })
        {
            var reported = histogram.Percentile(q);
            Assert.InRange(reported, exact, exact + (exact / 500)); // never under, at most 0.2% over
        }

        var merged = new LatencyHistogram();
        merged.Record(5);
        merged.Add(histogram);
        Assert.Equal(100_001, merged.Count);
        Assert.Equal(5, merged.Percentile(0.000001));
    }

    [Theory]
    [InlineData("--window", "0")]
    [InlineData("--mode", "open")]
    [InlineData("--connect", "localhost")]
    [InlineData("--payload", "-1")]
    [InlineData("--bogus", "1")]
    public void Parse_BadArgument_ThrowsWithTheOptionNamed(string name, string value)
    {
        var error = Assert.ThrowsAny<ArgumentException>(() => LoadOptions.Parse([name, value]));
        Assert.Contains(name, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Plot_SweepReportWithPeer_DrawsEverySeries()
    {
        var path = Path.Combine(Path.GetTempPath(), $"loadtest-{Guid.NewGuid():N}.png");
        var run = SampleRun();
        var report = SampleReport(
        [
            run with { Connections = 1, CallsPerSecond = 10_000, Latency = new LatencyReport { P99Us = 150 } },
            run with { Connections = 10, CallsPerSecond = 40_000, Latency = new LatencyReport { P99Us = 900 } },
            run with { Connections = 100, CallsPerSecond = 45_000, Latency = new LatencyReport { P99Us = 6000 } },
            run with { Implementation = "nats", Caller = "nats", Connections = 1, CallsPerSecond = 5_000, Latency = new LatencyReport { P99Us = 300 } },
            run with { Implementation = "nats", Caller = "nats", Connections = 100, CallsPerSecond = 20_000, Latency = new LatencyReport { P99Us = 9000 } },
        ]);
        try
        {
            ConnectionSweep.Plot(report, path);
            using var image = SkiaSharp.SKBitmap.Decode(path);
            Assert.NotNull(image);
            Assert.True(image.Width >= 1000 && image.Height >= 500, $"{image.Width}x{image.Height}");

            // Both series' colours are on the picture: ours (steel blue) and NATS (dark orange).
            Assert.True(HasColor(image, ScottPlot.Colors.SteelBlue), "no line in ours' colour");
            Assert.True(HasColor(image, ScottPlot.Colors.DarkOrange), "no line in the NATS colour");
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Table_FolderWithPeerReport_PrintsEveryServerAndDrawsBars()
    {
        var folder = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), $"loadtest-{Guid.NewGuid():N}")).FullName;
        var path = Path.Combine(folder, "peers.png");
        var run = SampleRun();
        var report = SampleReport(
        [
            run with { Connections = 10, CallsPerSecond = 40_000, Calls = 100_000, ServerProcess = new ServerProcessReport { Command = "dotnet JsonRpc.Router.dll --port 0", CpuSeconds = 9.5, PeakRssMb = 80 } },
            run with { Implementation = "nats", Caller = "nats", Provider = "nats", Connections = 10, CallsPerSecond = 20_000 },
        ]);
        try
        {
            File.WriteAllText(Path.Combine(folder, "a.json"), JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport));
            var table = MarkdownTable.FromFolder(folder);
            Assert.Contains("| nats-server | NATS.Net |", table, StringComparison.Ordinal);
            Assert.Contains("| router process | raw |", table, StringComparison.Ordinal);
            Assert.Contains("9.5 s (0%), 95.0 us / 80 MB", table, StringComparison.Ordinal);

            JsonRpc.LoadTest.Charts.PeerChart.Save(folder, path);
            using var image = SkiaSharp.SKBitmap.Decode(path);
            Assert.True(HasColor(image, ScottPlot.Colors.SteelBlue) && HasColor(image, ScottPlot.Colors.DarkOrange), "a bar is missing");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static RunReport SampleRun() => new()
    {
        Label = "test",
        Caller = "raw",
        Provider = "raw",
        Target = "process",
        Mode = "closed",
        PayloadBytes = 50,
        Latency = new LatencyReport(),
        Correctness = new CorrectnessReport { Passed = true },
        Cpu = new CpuReport(),
    };

    private static LoadReport SampleReport(List<RunReport> runs) => new()
    {
        Machine = new MachineReport { Cpu = "cpu", Os = "os", Dotnet = ".NET", Gc = "server", LoadAverage = "0" },
        Runs = runs,
    };

    private static bool HasColor(SkiaSharp.SKBitmap image, ScottPlot.Color color)
    {
        for (var y = 0; y < image.Height; y++)
        {
            for (var x = 0; x < image.Width; x++)
            {
                var pixel = image.GetPixel(x, y);
                if (pixel.Red == color.R && pixel.Green == color.G && pixel.Blue == color.B)
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static void AssertAnsweredOnce(RunReport run)
    {
        Assert.True(run.Correctness.Passed, $"{run.Label}: {run.Correctness.FirstProblem ?? "the correctness check failed"}");
        Assert.True(run.Correctness.CallsSent > 50, $"{run.Label}: only {run.Correctness.CallsSent} calls in a second");
        Assert.Equal(run.Correctness.CallsSent, run.Correctness.Answers);
        Assert.Equal(0, run.Errors);
        Assert.True(run.Latency.P50Us > 0 && run.Latency.P50Us <= run.Latency.P99Us, $"{run.Label}: latency {run.Latency}");
    }

    private static void AssertRun(RunReport run, bool direct)
    {
        Assert.True(run.Correctness.Passed, $"{run.Label}: {run.Correctness.FirstProblem ?? "the correctness check failed"}");
        Assert.True(run.Correctness.CallsSent > 100, $"{run.Label}: only {run.Correctness.CallsSent} calls in a second");
        Assert.Equal(run.Correctness.CallsSent, run.Correctness.Answers);
        Assert.Equal(0, run.Errors);
        Assert.InRange(run.Calls, 1, run.Correctness.CallsSent);
        Assert.Equal(run.Calls / run.DurationSeconds, run.CallsPerSecond, 0.1);
        Assert.Equal(run.CallsPerSecond * 64 * 8 / 1e6, run.PayloadMbps, 0.01);
        Assert.True(run.Latency.P50Us > 0 && run.Latency.P50Us <= run.Latency.P99Us && run.Latency.P99Us <= run.Latency.P999Us
            && run.Latency.P999Us <= run.Latency.MaxUs, $"latency percentiles out of order: {run.Latency}");
        Assert.NotNull(run.Router);
        Assert.Equal(direct ? 0 : run.Correctness.CallsSent, run.Router.CallsRouted);
        Assert.Equal(direct ? run.Correctness.CallsSent : 0, run.Router.ServerCalls);
    }

    private static void AssertJson(LoadReport report)
    {
        // The JSON has every field, under its documented snake_case name.
        using var json = JsonDocument.Parse(JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport));
        var root = json.RootElement;
        AssertFields(root, "tool", "started_at", "machine", "runs", "all_correct");
        AssertFields(root.GetProperty("machine"), "cpu", "cores", "os", "dotnet", "gc", "inline_socket_completions", "load_average");
        var first = root.GetProperty("runs")[0];
        AssertFields(first, "label", "caller", "provider", "target", "mode", "window", "connections", "providers", "payload_bytes",
            "direct", "warmup_seconds", "duration_seconds", "calls", "calls_per_second", "payload_mbps", "latency", "errors",
            "correctness", "cpu", "router");
        AssertFields(first.GetProperty("latency"), "p50_us", "p99_us", "p999_us", "max_us", "mean_us", "method");
        AssertFields(first.GetProperty("correctness"), "passed", "calls_sent", "answers", "missing", "duplicates", "unexpected",
            "mismatches", "error_answers", "failed_connections", "first_problem");
        AssertFields(first.GetProperty("cpu"), "process_percent", "machine_percent", "others_percent", "load_average");
        AssertFields(first.GetProperty("router"), "calls_routed", "server_calls", "messages_in", "messages_out", "bytes_in", "bytes_out",
            "errors", "answers_dropped");
        Assert.True(root.GetProperty("all_correct").GetBoolean());
        Assert.Equal(report.Runs.Count, root.GetProperty("runs").GetArrayLength());
    }

    private static void AssertFields(JsonElement element, params string[] names)
    {
        foreach (var name in names)
        {
            Assert.True(element.TryGetProperty(name, out _), $"'{name}' missing from {element}");
        }
    }
}

/// <summary>The collection <see cref="LoadGeneratorTests"/> runs in: not in parallel with anything.</summary>
[CollectionDefinition(LoadGeneratorTests.Collection, DisableParallelization = true)]
public sealed class LoadGeneratorCollection;
