using JsonRpc.LoadTest;
using JsonRpc.LoadTest.Report;
using JsonRpc.LoadTest.Soak;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The five-minute version of the soak with faults (the committed run lasts an hour): two router processes in a cluster
/// on a real nats-server, calls, batches, events and cancellations from raw and JsonRpcClient callers while providers,
/// node B and nats-server are killed and started again, hostile connections come and go, and callers disconnect
/// mid-call. Runs with the load generator's tests, alone.
/// </summary>
[Collection(LoadGeneratorTests.Collection)]
public sealed class SoakTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task Soak_FiveMinutesWithFaults_EveryCallAnsweredOnce_AndNothingPilesUp()
    {
        var folder = Directory.CreateTempSubdirectory("soak-").FullName;
        try
        {
            var options = LoadOptions.Parse(["--router", RouterProcess.Dll, "--soak", "300", "--warmup", "10", "--soak-out", folder]);
            var progress = new StringWriter();
            var report = await SoakRun.RunAsync(options, progress, CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(9));
            SoakRun.Save(report, folder);
            SoakSummary.Print(report, progress);
            output.WriteLine(progress.ToString());

            // Every fault was injected, and none failed to be.
            Assert.All(report.Faults, fault => Assert.DoesNotContain("failed", fault.Outcome, StringComparison.Ordinal));
            foreach (var kind in new[] { "provider B killed", "node B killed", "nats-server restarted", "hostile connection", "disconnect mid-call", "provider A killed" })
            {
                Assert.Contains(report.Faults, fault => fault.Kind.Contains(kind, StringComparison.Ordinal));
            }

            // Exactly one answer per call, through all of it.
            Assert.True(report.Results > 1000 && report.ClientResults > 100 && report.ClientCancelled > 10, "too little traffic to prove anything");
            Assert.Equal(0, report.Lost);
            Assert.Equal(0, report.LostWithConnection);
            Assert.Equal(0, report.Strays);
            Assert.Equal(0, report.Mismatches);
            Assert.Equal(0, report.ClientMismatches);
            Assert.Equal(0, report.ClientHung);
            Assert.Equal(0, report.ClientTimedOut);
            Assert.True(report.ExactlyOnce);
            Assert.True(report.EventsReceived > 0);

            // Nothing piles up. Five minutes are too short for the committed hour's ±10% RSS check (each round's
            // hostile connections may still take the GC's heap a step higher; the hour shows where it levels off):
            // here, from the minute after warm-up and a round of faults to the last, RSS grows by less than what one
            // hostile connection may cost (64 MiB), and threads and open handles come back to where they were.
            Assert.True(report.RssAtEndMb - report.RssAfterWarmupMb < 64 * 1.048576,
                $"RSS {report.RssAfterWarmupMb} MB after warm-up, {report.RssAtEndMb} MB at the end");
            Assert.True(report.ThreadsAtEnd <= report.ThreadsAfterWarmup + 8, $"threads {report.ThreadsAfterWarmup} -> {report.ThreadsAtEnd}");
            Assert.True(report.HandlesAtEnd <= report.HandlesAfterWarmup + 16, $"handles {report.HandlesAfterWarmup} -> {report.HandlesAtEnd}");
            Assert.True(report.Samples.Count >= 250, $"{report.Samples.Count} samples in 300 s");
            Assert.True(File.Exists(Path.Combine(folder, "soak.png")) && new FileInfo(Path.Combine(folder, "soak.png")).Length > 10_000);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
