using JsonRpc.LoadTest;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// The load generator across two nodes: callers on one, the echo provider on the other, every call crossing NATS.
/// Runs alone, so that its burst of full load does not starve the timing of the other cluster tests.
/// </summary>
[Collection(ClusterLoadTests.Collection)]
public sealed class ClusterLoadTests(ITestOutputHelper output)
{
    public const string Collection = "ClusterLoad";

    [NatsFact]
    public async Task RunAsync_CallersOnOneNodeProviderOnAnother_EveryCallAnsweredOnce()
    {
        await using var cluster = await ClusterNodes.StartAsync(2);
        var options = LoadOptions.Parse([
            "--connect", $"127.0.0.1:{cluster[0].Port}", "--connect", $"127.0.0.1:{cluster[1].Port}",
            "--mode", "pipelined", "--window", "8", "--caller", "raw", "--connections", "2",
            "--duration", "1", "--warmup", "0.2", "--grace", "10", "--payload", "64"]);
        var progress = new StringWriter();
        var report = await LoadRunner.RunAsync(options, progress).WaitAsync(TimeSpan.FromSeconds(90));
        output.WriteLine(progress.ToString());

        var run = Assert.Single(report.Runs);
        Assert.True(report.AllCorrect, progress.ToString());
        Assert.True(run.Correctness.Answers > 0);

        // Every call was routed twice: by the callers' node to the other node, and there to the provider.
        Assert.True(cluster[0].Router.GetStats().CallsRouted >= run.Correctness.Answers);
        Assert.True(cluster[1].Router.GetStats().CallsRouted >= run.Correctness.Answers);
    }
}

[CollectionDefinition(ClusterLoadTests.Collection, DisableParallelization = true)]
public sealed class ClusterLoadCollection;
