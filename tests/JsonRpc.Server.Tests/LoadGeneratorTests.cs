using System.Buffers.Binary;
using System.IO.Compression;
using System.Text.Json;
using JsonRpc.LoadTest;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The load generator (benchmarks/JsonRpc.LoadTest): its engine against a real in-process router, its report and plot.
/// Runs alone (its own collection, parallelization off), so that its bursts of full load never starve the timing of
/// other tests.
/// </summary>
[Collection(LoadGeneratorTests.Collection)]
public sealed class LoadGeneratorTests(ITestOutputHelper output)
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
    public void Plot_SweepReport_WritesValidPng()
    {
        var path = Path.Combine(Path.GetTempPath(), $"loadtest-{Guid.NewGuid():N}.png");
        var run = new RunReport
        {
            Label = "test",
            Caller = "raw",
            Provider = "raw",
            Target = "in-process",
            Mode = "closed",
            Latency = new LatencyReport(),
            Correctness = new CorrectnessReport { Passed = true },
            Cpu = new CpuReport(),
        };
        var report = new LoadReport
        {
            Machine = new MachineReport { Cpu = "cpu", Os = "os", Dotnet = ".NET", Gc = "server", LoadAverage = "0" },
            Runs =
            [
                run with { Connections = 1, CallsPerSecond = 10_000, Latency = new LatencyReport { P99Us = 150 } },
                run with { Connections = 10, CallsPerSecond = 40_000, Latency = new LatencyReport { P99Us = 900 } },
                run with { Connections = 100, CallsPerSecond = 45_000, Latency = new LatencyReport { P99Us = 6000 } },
            ],
        };
        try
        {
            ConnectionSweep.Plot(report, path);
            var png = File.ReadAllBytes(path);
            Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }, png[..8]);

            // Every chunk's CRC checks out (computed here bit by bit), and the pixels inflate to one filtered row per line.
            var at = 8;
            int width = 0, height = 0;
            using var idat = new MemoryStream();
            var types = new List<string>();
            while (at < png.Length)
            {
                var length = BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(at));
                var type = System.Text.Encoding.ASCII.GetString(png, at + 4, 4);
                var data = png.AsSpan(at + 8, length);
                Assert.Equal(BitwiseCrc32(png.AsSpan(at + 4, length + 4)), BinaryPrimitives.ReadUInt32BigEndian(png.AsSpan(at + 8 + length)));
                if (type == "IHDR")
                {
                    width = BinaryPrimitives.ReadInt32BigEndian(data);
                    height = BinaryPrimitives.ReadInt32BigEndian(data[4..]);
                }
                else if (type == "IDAT")
                {
                    idat.Write(data);
                }

                types.Add(type);
                at += length + 12;
            }

            Assert.Equal(["IHDR", "IDAT", "IEND"], types);
            idat.Position = 0;
            using var inflated = new MemoryStream();
            using (var zlib = new ZLibStream(idat, CompressionMode.Decompress))
            {
                zlib.CopyTo(inflated);
            }

            Assert.Equal(height * (1 + (width * 3)), inflated.Length);
            Assert.True(width >= 800 && height >= 400, $"{width}x{height}");
        }
        finally
        {
            File.Delete(path);
        }
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
        AssertFields(root.GetProperty("machine"), "cpu", "cores", "os", "dotnet", "gc", "load_average");
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

    private static uint BitwiseCrc32(ReadOnlySpan<byte> data)
    {
        var crc = 0xFFFFFFFFu;
        foreach (var b in data)
        {
            crc ^= b;
            for (var k = 0; k < 8; k++)
            {
                crc = (crc >> 1) ^ (0xEDB88320u & (uint)-(int)(crc & 1));
            }
        }

        return ~crc;
    }
}

/// <summary>The collection <see cref="LoadGeneratorTests"/> runs in: not in parallel with anything.</summary>
[CollectionDefinition(LoadGeneratorTests.Collection, DisableParallelization = true)]
public sealed class LoadGeneratorCollection;
