using JsonRpc.Server.Cluster;
using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// The README's three-machine layout on one machine: three nats-servers joined into one NATS cluster by routes, and
/// each router connected to its own server first, with the other two listed for failover. No NATS server is a single
/// point of failure.
/// </summary>
public sealed class NatsClusterTests(ITestOutputHelper output)
{
    // A NATS cluster forms over its routes in about a second; only a failure waits this long.
    private static readonly TimeSpan FormTimeout = TimeSpan.FromSeconds(30);

    [NatsFact]
    public async Task ThreeNatsServers_CallsAndEventsCross_AndARouterWhoseServerDiesFailsOverToAnother()
    {
        var clientPorts = new[] { NatsServer.FreePort(), NatsServer.FreePort(), NatsServer.FreePort() };
        var routePorts = new[] { NatsServer.FreePort(), NatsServer.FreePort(), NatsServer.FreePort() };
        var servers = new List<NatsServer>();
        var hosts = new List<RouterHost>();
        var nodes = new List<JsonRpcCluster>();
        var clients = new List<LineClient>();
        using var stop = new CancellationTokenSource();
        try
        {
            for (var i = 0; i < 3; i++)
            {
                var routes = string.Join(",", Enumerable.Range(0, 3).Where(j => j != i).Select(j => $"nats://127.0.0.1:{routePorts[j]}"));
                servers.Add(await NatsServer.StartAsync(clientPorts[i],
                    "--cluster_name", "jsonrpc-test", "--cluster", $"nats://127.0.0.1:{routePorts[i]}", "--routes", routes));
            }

            for (var i = 0; i < 3; i++)
            {
                // Its own server first, then the others, in that order (NATS.Net shuffles the list by default).
                var urls = string.Join(",", Enumerable.Range(0, 3).Select(j => (i + j) % 3).Select(j => $"nats://127.0.0.1:{clientPorts[j]}"));
                var host = await RouterHost.StartAsync(o => o.CallTimeout = TimeSpan.FromSeconds(20), logger: new TestOutputLoggerProvider(output));
                hosts.Add(host);
                var node = new JsonRpcCluster(host.Router, new JsonRpcClusterOptions
                {
                    NatsUrl = urls,
                    NodeName = "m" + i,
                    HeartbeatInterval = TimeSpan.FromMilliseconds(250),
                    NodeTimeout = TimeSpan.FromMilliseconds(1500),
                    ConfigureNats = o => o with { NoRandomize = true },
                });
                await node.StartAsync();
                nodes.Add(node);
            }

            await Eventually.TrueAsync(() => nodes.TrueForAll(n => n.Nodes.Count == 2), "every router sees the other two across the NATS cluster", FormTimeout);
            for (var i = 0; i < 3; i++)
            {
                Assert.Equal(clientPorts[i], nodes[i].ServerPort);
            }

            var provider = await Connect(2, "provider");
            await provider.ProvideAsync("far");
            var subscribers = new[] { await Connect(0, "sub-0"), await Connect(2, "sub-2") };
            foreach (var subscriber in subscribers)
            {
                await subscriber.SubscribeAsync("tick");
            }

            var caller = await Connect(0, "caller");
            var publisher = await Connect(1, "publisher");
            await Eventually.TrueAsync(() => ClusterCallTests.RouteCount(hosts[0].Router, "far") == 1, "m0 routes far to m2", FormTimeout);
            await Eventually.TrueAsync(() => Subscribers(hosts[1]) == 2, "m1 routes tick to m0 and m2", FormTimeout);

            // A call from m0 to m2 crosses two NATS servers (0 and 2, through the route between them).
            await caller.SendAsync(LineClient.Request("across", "far", """{"n":1}"""));
            var request = await provider.ServeOneAsync("\"from m2\"");
            Assert.Equal("""{"n":1}""", request.GetProperty("params").GetRawText());
            var answer = await caller.ReadAsync();
            Assert.Equal("across", answer.GetProperty("id").GetString());
            Answer.IsResult(answer, "\"from m2\"");

            // An event published on m1 reaches the subscribers on m0 and m2 once each.
            await publisher.SendAsync(LineClient.Notification("tick", "[7]"));
            foreach (var subscriber in subscribers)
            {
                var ev = await subscriber.ReadAsync();
                Assert.Equal(7, ev.GetProperty("params")[0].GetInt32());
            }

            foreach (var subscriber in subscribers)
            {
                await subscriber.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
            }

            // m2's own NATS server dies: m2 reconnects to another server of its list, the cluster heals around it, and
            // calls from m0 reach m2's provider again through whichever server m2 moved to.
            servers[2].Kill();
            await Eventually.TrueAsync(() => nodes[2].ServerPort is { } port && port != clientPorts[2], "m2 fails over to another NATS server", FormTimeout);
            await Eventually.TrueAsync(() => nodes.TrueForAll(n => n.Nodes.Count == 2), "the routers see each other again", FormTimeout);
            var served = ServeAllAsync(provider, stop.Token);
            var result = await CallUntilAnsweredAsync(caller, "far");
            Answer.IsResult(result, "\"again\"");
            await stop.CancelAsync();
            await served;
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }

            for (var i = 0; i < nodes.Count; i++)
            {
                await nodes[i].DisposeAsync();
                await hosts[i].DisposeAsync();
            }

            foreach (var server in servers)
            {
                await server.DisposeAsync();
            }
        }

        async Task<LineClient> Connect(int node, string name)
        {
            var client = await LineClient.ConnectAsync(hosts[node].Port);
            clients.Add(client);
            await client.RegisterAsync(name);
            return client;
        }

        static int Subscribers(RouterHost host)
            => host.Router.Routes.TryGetValue("tick"u8.ToArray(), out var route) ? route.Subscribers.Length : 0;
    }

    /// <summary>Answers every call the provider gets with <c>"again"</c> until stopped.</summary>
    private static async Task ServeAllAsync(LineClient provider, CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                await provider.ServeOneAsync("\"again\"").WaitAsync(stop);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }
    }

    /// <summary>
    /// Calls <paramref name="method"/> until it is answered with a result: while the cluster heals, a call may still be
    /// refused (the node not yet known again) or fail with the node it was sent to. Bounded in time.
    /// </summary>
    private static async Task<System.Text.Json.JsonElement> CallUntilAnsweredAsync(LineClient caller, string method)
    {
        var deadline = DateTime.UtcNow + FormTimeout;
        while (true)
        {
            var answer = await caller.CallAsync(method);
            if (answer.TryGetProperty("result", out _) || DateTime.UtcNow > deadline)
            {
                return answer;
            }

            await Task.Delay(100);
        }
    }
}
