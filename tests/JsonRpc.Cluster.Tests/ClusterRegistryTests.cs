using System.Diagnostics;
using System.Text.Json;
using JsonRpc.Server;

namespace JsonRpc.Cluster.Tests;

public sealed class ClusterRegistryTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Propagation = TimeSpan.FromMilliseconds(500);

    [NatsFact]
    public async Task RegisterMethod_OnOneNode_RoutableOnEveryNodeWithin500msAndGoneWithin500msAfterRelease()
    {
        await using var cluster = await ClusterNodes.StartAsync(3, output);
        await using var provider = await cluster.ConnectRegisteredAsync(0, "p");

        await provider.ProvideAsync("m");
        var watch = Stopwatch.StartNew();
        await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(cluster[1].Router, "m") == 1 && ClusterCallTests.RouteCount(cluster[2].Router, "m") == 1,
            "every node routes m", TimeSpan.FromSeconds(5));
        Assert.True(watch.Elapsed < Propagation, $"registration took {watch.Elapsed.TotalMilliseconds} ms to propagate");

        var answer = await provider.CallAsync("unregister_method", """{"method":"m"}""");
        Assert.True(answer.GetProperty("result").GetBoolean());
        watch.Restart();
        await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(cluster[1].Router, "m") == 0 && ClusterCallTests.RouteCount(cluster[2].Router, "m") == 0,
            "no node routes m", TimeSpan.FromSeconds(5));
        Assert.True(watch.Elapsed < Propagation, $"release took {watch.Elapsed.TotalMilliseconds} ms to propagate");
    }

    [NatsFact]
    public async Task Subscribe_AndDisconnect_PropagateWithin500ms()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        var subscriber = await cluster.ConnectRegisteredAsync(1, "s");
        await subscriber.SubscribeAsync("ev");
        var watch = Stopwatch.StartNew();
        await Eventually.TrueAsync(() => SubscriberCount(cluster[0].Router, "ev") == 1, "node 0 knows the subscription", TimeSpan.FromSeconds(5));
        Assert.True(watch.Elapsed < Propagation, $"subscription took {watch.Elapsed.TotalMilliseconds} ms");

        await subscriber.DisposeAsync();
        watch.Restart();
        await Eventually.TrueAsync(() => SubscriberCount(cluster[0].Router, "ev") == 0, "node 0 forgot the subscription", TimeSpan.FromSeconds(5));
        Assert.True(watch.Elapsed < Propagation, $"release took {watch.Elapsed.TotalMilliseconds} ms");
    }

    [NatsFact]
    public async Task RegisterClient_NameHeldOnOtherNode_RefusedWithNameTakenUntilReleased()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var rival = await cluster.ConnectAsync(1);
        var holder = await cluster.ConnectRegisteredAsync(0, "unique");
        var watch = Stopwatch.StartNew();
        await Eventually.TrueAsync(() => KnowsClient(cluster, 1, "unique"), "node 1 knows the name", TimeSpan.FromSeconds(5));
        Assert.True(watch.Elapsed < Propagation, $"the name took {watch.Elapsed.TotalMilliseconds} ms to propagate");

        var refused = await rival.CallAsync("register_client", """{"name":"unique"}""");
        Answer.IsError(refused, RouterErrorCodes.NameTaken);
        Assert.Contains("n0", refused.GetProperty("error").GetProperty("data").GetString());

        await holder.DisposeAsync();
        await Eventually.TrueAsync(() => !KnowsClient(cluster, 1, "unique"), "node 1 forgot the name", TimeSpan.FromSeconds(5));
        await rival.RegisterAsync("unique");
    }

    [NatsFact]
    public async Task ListMethods_ProvidersOnSeveralNodes_ListsEachWithItsNode()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var a = await cluster.ConnectRegisteredAsync(0, "a", "shared", "only-a");
        await using var b = await cluster.ConnectRegisteredAsync(1, "b", "shared");
        await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(cluster[0].Router, "shared") == 2, "node 0 knows both providers");

        var list = (await a.CallAsync("list_methods")).GetProperty("result");
        var shared = list.EnumerateArray().Single(e => e.GetProperty("method").GetString() == "shared");
        Assert.Equal(["a", "b"], shared.GetProperty("providers").EnumerateArray().Select(p => p.GetString()));
        Assert.Equal(["n0", "n1"], shared.GetProperty("nodes").EnumerateArray().Select(p => p.GetString()));
        var onlyA = list.EnumerateArray().Single(e => e.GetProperty("method").GetString() == "only-a");
        Assert.Equal(["n0"], onlyA.GetProperty("nodes").EnumerateArray().Select(p => p.GetString()));

        var stats = await b.StatsAsync();
        var nodes = stats.GetProperty("cluster").GetProperty("nodes").EnumerateArray().Select(n => n.GetProperty("node").GetString()).Order();
        Assert.Equal(["n0", "n1"], nodes);
        Assert.Equal("n1", stats.GetProperty("cluster").GetProperty("node").GetString());
    }

    [NatsFact]
    public async Task RegisterClient_SameNameOnTwoNodesAtOnce_ExactlyOneHoldsItAfterwards()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        for (var round = 0; round < 5; round++)
        {
            var name = "race-" + round;
            await using var first = await cluster.ConnectAsync(0);
            await using var second = await cluster.ConnectAsync(1);
            var register = $$"""{"name":"{{name}}"}""";
            await Task.WhenAll(RegisterAsync(first, register), RegisterAsync(second, register));

            // Either one was refused at once, or both were granted and the later claim is revoked as soon as the
            // nodes see each other's: in the end exactly one connection in the cluster holds the name.
            await Eventually.TrueAsync(() => Holders(cluster, name) == 1, $"exactly one node holds {name}", TimeSpan.FromSeconds(15));
            await Task.Delay(TimeSpan.FromMilliseconds(200)); // and it stays so once both nodes have seen both claims
            Assert.True(Holders(cluster, name) == 1, $"round {round}: {Describe(cluster, name)}");
        }

        // The answer to register_client; or, when the other node's claim arrived between the grant and its answer, the
        // revocation (a NameTaken error without an id, then the connection closes) comes first: both settle the race.
        static async Task RegisterAsync(LineClient client, string register)
        {
            await client.SendAsync(LineClient.Request(1, "register_client", register));
            var answer = await client.ReadAsync();
            if (answer.GetProperty("id").ValueKind == JsonValueKind.Null)
            {
                Answer.IsError(answer, RouterErrorCodes.NameTaken);
            }
            else
            {
                Assert.Equal(1, answer.GetProperty("id").GetInt32());
            }
        }

        static int Holders(ClusterNodes cluster, string name)
            => cluster.Nodes.Sum(n => n.Host.Router.SnapshotLocalRegistry().Count(c => c.Name == name));

        // Who holds the name on each node, and what each node last heard of the other's clients.
        static string Describe(ClusterNodes cluster, string name)
            => string.Join("; ", cluster.Nodes.Select((n, i) =>
                $"node {i} holds it {n.Host.Router.SnapshotLocalRegistry().Count(c => c.Name == name)} time(s), knows it remotely: {n.Cluster.RemoteClientNames().Contains(name)}"));
    }

    private static bool KnowsClient(ClusterNodes cluster, int node, string name)
        => cluster.Nodes[node].Cluster.RemoteClientNames().Contains(name);

    private static int SubscriberCount(JsonRpcRouter router, string @event)
        => router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(@event), out var route) ? route.Subscribers.Length : 0;
}
