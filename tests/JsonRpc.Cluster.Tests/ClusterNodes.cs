using JsonRpc.Server;
using JsonRpc.Server.Cluster;
using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>A real nats-server and several routers on real Kestrels in this process, each a node of one cluster.</summary>
public sealed class ClusterNodes : IAsyncDisposable
{
    private ClusterNodes(NatsServer nats) => Nats = nats;

    public NatsServer Nats { get; }

    public List<(RouterHost Host, JsonRpcCluster Cluster)> Nodes { get; } = [];

    public RouterHost this[int index] => Nodes[index].Host;

    /// <param name="natsArguments">More nats-server arguments, such as <c>-c</c> and a configuration file.</param>
    /// <param name="http">Each node also serves WebSocket and POST at <c>/rpc</c> (see <see cref="RouterHost.StartAsync"/>).</param>
    public static async Task<ClusterNodes> StartAsync(int count, ITestOutputHelper? output = null,
        Action<JsonRpcRouterOptions>? router = null, Action<JsonRpcClusterOptions>? cluster = null, string[]? natsArguments = null,
        bool http = false)
    {
        var nodes = new ClusterNodes(await NatsServer.StartAsync(0, natsArguments ?? []));
        try
        {
            for (var i = 0; i < count; i++)
            {
                await nodes.AddNodeAsync("n" + i, output, router, cluster, http);
            }

            // Every node knows every other before the test begins.
            await Eventually.TrueAsync(() => nodes.Nodes.TrueForAll(n => n.Cluster.Nodes.Count == count - 1), "every node sees the others");
            return nodes;
        }
        catch
        {
            await nodes.DisposeAsync();
            throw;
        }
    }

    /// <param name="beforeJoin">Runs on the node's router once it serves and before it joins the cluster.</param>
    public async Task<JsonRpcCluster> AddNodeAsync(string name, ITestOutputHelper? output = null,
        Action<JsonRpcRouterOptions>? router = null, Action<JsonRpcClusterOptions>? cluster = null, bool http = false,
        Func<RouterHost, Task>? beforeJoin = null)
    {
        var host = await RouterHost.StartAsync(o =>
        {
            o.CallTimeout = TimeSpan.FromSeconds(20);
            router?.Invoke(o);
        }, logger: output is null ? null : new TestOutputLoggerProvider(output), http: http);
        if (beforeJoin is not null)
        {
            await beforeJoin(host);
        }

        var options = new JsonRpcClusterOptions { NatsUrl = Nats.Url, NodeName = name };
        cluster?.Invoke(options);
        var node = new JsonRpcCluster(host.Router, options);
        await node.StartAsync();
        Assert.True(node.IsConnected, $"node {name} did not connect to NATS");
        Nodes.Add((host, node));
        return node;
    }

    public Task<LineClient> ConnectAsync(int node) => LineClient.ConnectAsync(this[node].Port);

    public async Task<LineClient> ConnectRegisteredAsync(int node, string name, params string[] methods)
    {
        var client = await ConnectAsync(node);
        await client.RegisterAsync(name);
        foreach (var method in methods)
        {
            await client.ProvideAsync(method);
        }

        return client;
    }

    /// <summary>Waits until <paramref name="node"/> routes <paramref name="method"/> (propagation).</summary>
    public Task KnowsMethodAsync(int node, string method, TimeSpan? timeout = null)
        => Eventually.TrueAsync(() => this[node].Router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(method), out var route) && route.Providers.Length > 0,
            $"node {node} routes '{method}'", timeout);

    public async ValueTask DisposeAsync()
    {
        foreach (var (host, cluster) in Nodes)
        {
            await cluster.DisposeAsync();
            await host.DisposeAsync();
        }

        await Nats.DisposeAsync();
    }
}
