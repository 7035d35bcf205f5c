using System.Diagnostics;
using JsonRpc.Server;
using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

public sealed class ClusterFailureTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task NatsDown_CrossNodeCallsFailClearly_LocalCallsGoOn_AndResumeWhenNatsReturns()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var remote = await cluster.ConnectRegisteredAsync(1, "remote", "far");
        await using var local = await cluster.ConnectRegisteredAsync(0, "local", "near");
        await cluster.KnowsMethodAsync(0, "far");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        // A call in flight to the other node when NATS goes fails at once, not at the call timeout.
        await caller.SendAsync(LineClient.Request("in-flight", "far"));
        await remote.ReadAsync();
        cluster.Nats.Kill();
        var watch = Stopwatch.StartNew();
        var lost = await caller.ReadAsync();
        Answer.IsError(lost, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal("in-flight", lost.GetProperty("id").GetString());
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"took {watch.Elapsed}");
        await Eventually.TrueAsync(() => !cluster.Nodes[0].Cluster.IsConnected, "node 0 sees NATS gone");

        var refused = await caller.CallAsync("far");
        Answer.IsError(refused, RouterErrorCodes.ClusterUnavailable);
        Assert.Contains("NATS", refused.GetProperty("error").GetProperty("data").GetString());

        await caller.SendAsync(LineClient.Request("local", "near"));
        await local.ServeOneAsync("\"still here\"");
        Answer.IsResult(await caller.ReadAsync(), "\"still here\"");

        // Cut off, a node still knows the others' names as last heard: those stay taken, new ones are granted.
        await using var newcomer = await cluster.ConnectAsync(0);
        Answer.IsError(await newcomer.CallAsync("register_client", """{"name":"remote"}"""), RouterErrorCodes.NameTaken);
        await newcomer.RegisterAsync("new");

        await cluster.Nats.RestartAsync();
        await Eventually.TrueAsync(() => cluster.Nodes.TrueForAll(n => n.Cluster.IsConnected), "every node reconnected", TimeSpan.FromSeconds(20));
        await Eventually.TrueAsync(() => cluster.Nodes[0].Cluster.Nodes.Count == 1 && cluster.Nodes[1].Cluster.Nodes.Count == 1, "the nodes see each other again", TimeSpan.FromSeconds(20));
        await caller.SendAsync(LineClient.Request("again", "far"));
        await remote.ServeOneAsync("\"back\"");
        var answer = await caller.ReadAsync();
        Assert.Equal("again", answer.GetProperty("id").GetString());
        Answer.IsResult(answer, "\"back\"");
        await Eventually.TrueAsync(() => cluster.Nodes[1].Cluster.RemoteClientNames().Contains("new"), "the name granted while cut off reached node 1");
    }

    [NatsFact]
    public async Task StartAsync_NatsNotYetRunning_ServesAloneThenJoinsWhenNatsStarts()
    {
        var port = NatsServer.FreePort();
        await using var host = await RouterHost.StartAsync(logger: new TestOutputLoggerProvider(output));
        await using var node = new JsonRpc.Server.Cluster.JsonRpcCluster(host.Router, new JsonRpc.Server.Cluster.JsonRpcClusterOptions
        {
            NatsUrl = $"nats://127.0.0.1:{port}",
            NodeName = "early",
            ConnectTimeout = TimeSpan.FromMilliseconds(300),
        });
        await node.StartAsync();
        Assert.False(node.IsConnected);

        // Alone, it still serves local calls.
        await using var provider = await LineClient.ConnectAsync(host.Port);
        await provider.RegisterAsync("p");
        await provider.ProvideAsync("local");
        await using var caller = await LineClient.ConnectAsync(host.Port);
        await caller.SendAsync(LineClient.Request(1, "local"));
        await provider.ServeOneAsync("1");
        Answer.IsResult(await caller.ReadAsync(), "1");

        await using var nats = await NatsServer.StartAsync(port);
        await Eventually.TrueAsync(() => node.IsConnected, "the node connects once NATS runs", TimeSpan.FromSeconds(20));
        await using var other = await RouterHost.StartAsync();
        await using var otherNode = new JsonRpc.Server.Cluster.JsonRpcCluster(other.Router, new JsonRpc.Server.Cluster.JsonRpcClusterOptions { NatsUrl = nats.Url, NodeName = "late" });
        await otherNode.StartAsync();
        await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(other.Router, "local") == 1, "the late node routes the early node's method", TimeSpan.FromSeconds(10));
        await using var remoteCaller = await LineClient.ConnectAsync(other.Port);
        await remoteCaller.SendAsync(LineClient.Request("across", "local"));
        await provider.ServeOneAsync("2");
        Answer.IsResult(await remoteCaller.ReadAsync(), "2");
    }

    [NatsFact]
    public async Task NodeLeaves_ItsRegistrationsDisappearAndWaitingCallsFail()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(1, "leaver", "gone-soon");
        await cluster.KnowsMethodAsync(0, "gone-soon");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");
        await caller.SendAsync(LineClient.Request(5, "gone-soon"));
        await provider.ReadAsync();

        await cluster.Nodes[1].Cluster.DisposeAsync();
        var answer = await caller.ReadAsync();
        Answer.IsError(answer, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal(5, answer.GetProperty("id").GetInt32());
        await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(cluster[0].Router, "gone-soon") == 0, "node 0 forgot the method", TimeSpan.FromSeconds(5));
        Answer.IsError(await caller.CallAsync("gone-soon"), -32601);
    }

    [NatsFact]
    public async Task TwoRouterProcesses_CallAcross_ThenProviderNodeKilled_CallsFailWellBeforeTimeoutAndMethodsVanish()
    {
        await using var nodes = await TwoProcesses.StartAsync(output, "--call_timeout_ms", "30000", "--cluster_heartbeat_ms", "250", "--cluster_node_timeout_ms", "1500");
        var (b, provider, caller) = (nodes.B, nodes.Provider, nodes.Caller);

        await caller.SendAsync(LineClient.Request("x1", "b.work", """{"n":1}"""));
        var request = await provider.ServeOneAsync("""{"ok":true}""");
        Assert.Equal("""{"n":1}""", request.GetProperty("params").GetRawText());
        var answer = await caller.ReadAsync();
        Assert.Equal("x1", answer.GetProperty("id").GetString());
        Assert.True(answer.GetProperty("result").GetProperty("ok").GetBoolean());

        // Killed mid-call: no goodbye; node a notices through NATS (no responders) or the missed heartbeats.
        await caller.SendAsync(LineClient.Request("x2", "b.work"));
        await provider.ReadAsync();
        var watch = Stopwatch.StartNew();
        b.Kill();
        var failed = await caller.ReadAsync(TimeSpan.FromSeconds(20));
        Answer.IsError(failed, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal("x2", failed.GetProperty("id").GetString());
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"failed after {watch.Elapsed}, call timeout 30 s");
        Assert.False(await ListsMethod(caller, "b.work"));
        Answer.IsError(await caller.CallAsync("b.work"), -32601);
    }

    [NatsFact]
    public async Task RouterProcessKilled_NextMessageToItComesBackNoResponders_CallsFailLongBeforeNodeTimeout()
    {
        await using var nodes = await TwoProcesses.StartAsync(output, "--call_timeout_ms", "60000", "--cluster_node_timeout_ms", "30000");
        var (b, provider, caller) = (nodes.B, nodes.Provider, nodes.Caller);
        await caller.SendAsync(LineClient.Request("first", "b.work"));
        await provider.ReadAsync();

        // Heartbeats alone would take 30 s to tell. Once NATS has seen b's socket close, the next message to b is
        // answered "no responders", and a drops b at once, failing every call waiting on it.
        var watch = Stopwatch.StartNew();
        b.Kill();
        var answers = new List<System.Text.Json.JsonElement>();
        for (var probe = 0; probe < 20 && !answers.Exists(e => e.GetProperty("id").ValueEquals("first")); probe++)
        {
            await caller.SendAsync(LineClient.Request("probe-" + probe, "b.work"));
            try
            {
                while (true)
                {
                    answers.Add(await caller.ReadAsync(TimeSpan.FromMilliseconds(500)));
                }
            }
            catch (TimeoutException)
            {
                // No more answers for now: probe again.
            }
        }

        var first = Assert.Single(answers, e => e.GetProperty("id").ValueEquals("first"));
        Answer.IsError(first, RouterErrorCodes.ProviderDisconnected);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(15), $"failed after {watch.Elapsed}; the node timeout is 30 s");
        Assert.False(await ListsMethod(caller, "b.work"));
    }

    internal static async Task<bool> ListsMethod(LineClient client, string method)
    {
        var list = (await client.CallAsync("list_methods")).GetProperty("result");
        return list.EnumerateArray().Any(e => e.GetProperty("method").GetString() == method);
    }
}
