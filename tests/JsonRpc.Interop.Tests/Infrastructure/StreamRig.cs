using JsonRpc.Server;
using JsonRpc.Server.Cluster;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>Where the callers and providers of a streaming test sit.</summary>
public enum Topology
{
    /// <summary>One router; StreamJsonRpc peers with newline-delimited System.Text.Json.</summary>
    OneNodeNewline,

    /// <summary>One router; StreamJsonRpc peers with Content-Length headers (Newtonsoft.Json).</summary>
    OneNodeContentLength,

    /// <summary>Two routers joined through a real nats-server: the provider on one, the callers on the other.</summary>
    TwoNodes,

    /// <summary>One router; the callers over its WebSocket endpoint, the provider over TCP.</summary>
    WebSocketCaller,
}

/// <summary>A theory over topologies that include a cluster: skipped, saying so, where nats-server is absent (never in CI).</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class TopologyTheoryAttribute : TheoryAttribute
{
    public TopologyTheoryAttribute() => Skip = RequiredServer.SkipIfAbsent(NatsServer.IsAvailable, NatsServer.SkipReason);
}

/// <summary>
/// Real routers (one, or two nodes of a cluster on a real nats-server), a StreamJsonRpc provider of
/// <see cref="StreamMethods"/> registered as "provider", and a StreamJsonRpc caller, placed as the topology says.
/// </summary>
public sealed class StreamRig : IAsyncDisposable
{
    private readonly List<IAsyncDisposable> _owned = [];

    private StreamRig(Topology topology) => Topology = topology;

    public static TheoryData<Topology> All => [Topology.OneNodeNewline, Topology.OneNodeContentLength, Topology.TwoNodes, Topology.WebSocketCaller];

    public Topology Topology { get; }

    public List<RouterHost> Routers { get; } = [];

    public StreamMethods Methods { get; private set; } = null!;

    public StreamJsonRpcPeer Provider { get; private set; } = null!;

    public StreamJsonRpcPeer Caller { get; private set; } = null!;

    private RouterHost CallerRouter => Routers[0];

    private RouterHost ProviderRouter => Routers[^1];

    private PeerFraming Framing => Topology == Topology.OneNodeContentLength ? PeerFraming.HeaderDelimited : PeerFraming.NewlineSystemTextJson;

    public static async Task<StreamRig> StartAsync(Topology topology, Action<JsonRpcRouterOptions>? configure = null, StreamMethods? methods = null)
    {
        var rig = new StreamRig(topology);
        try
        {
            if (topology == Topology.TwoNodes)
            {
                var nats = await NatsServer.StartAsync();
                rig._owned.Add(nats);
                var clusters = new List<JsonRpcCluster>();
                for (var i = 0; i < 2; i++)
                {
                    var host = await RouterHost.StartAsync(configure);
                    rig.Routers.Add(host);
                    rig._owned.Add(host);
                    var cluster = new JsonRpcCluster(host.Router, new JsonRpcClusterOptions { NatsUrl = nats.Url, NodeName = "n" + i });
                    rig._owned.Add(cluster);
                    await cluster.StartAsync();
                    clusters.Add(cluster);
                }

                await Eventually.TrueAsync(() => clusters.TrueForAll(c => c.Nodes.Count == 1), "both nodes see each other");
            }
            else
            {
                var host = await RouterHost.StartAsync(configure, http: topology == Topology.WebSocketCaller);
                rig.Routers.Add(host);
                rig._owned.Add(host);
            }

            rig.Methods = methods ?? new StreamMethods();
            rig.Provider = await rig.ConnectProviderAsync(rig.Methods, "provider");
            rig.Caller = await rig.ConnectCallerAsync();
            await WaitUntilRoutedAsync(rig.Caller);
            return rig;
        }
        catch
        {
            await rig.DisposeAsync();
            throw;
        }
    }

    /// <summary>A StreamJsonRpc provider of <paramref name="methods"/> on the provider's node, registered as <paramref name="name"/>.</summary>
    public async Task<StreamJsonRpcPeer> ConnectProviderAsync(StreamMethods methods, string name)
    {
        var provider = await StreamJsonRpcPeer.ConnectAsync(ProviderRouter.Port, Framing, methods.Serve);
        await provider.RegisterAsync(name, methods.Names);
        return provider;
    }

    /// <summary>Another caller, placed as the topology places callers.</summary>
    public Task<StreamJsonRpcPeer> ConnectCallerAsync(Action<StreamJsonRpc.JsonRpc>? setup = null) => Topology == Topology.WebSocketCaller
        ? StreamJsonRpcPeer.ConnectWebSocketAsync(CallerRouter.WebSocketUri, setup)
        : StreamJsonRpcPeer.ConnectAsync(CallerRouter.Port, Framing, setup);

    /// <summary>Waits until the caller's node routes the provider's methods (a cluster learns them within moments).</summary>
    public static Task WaitUntilRoutedAsync(StreamJsonRpcPeer caller) => Eventually.TrueAsync(async () =>
    {
        try
        {
            return await caller.Rpc.InvokeWithCancellationAsync<int>("report", [0, new ProgressRecorder()], CancellationToken.None).Within() == 0;
        }
        catch (RemoteMethodNotFoundException)
        {
            return false;
        }
    }, "the caller's router routes the provider's methods");

    public async ValueTask DisposeAsync()
    {
        if (Caller is not null)
        {
            await Caller.DisposeAsync();
        }

        if (Provider is not null)
        {
            await Provider.DisposeAsync();
        }

        // Last in, first out: each node leaves the cluster before its router stops, and NATS stops last.
        foreach (var owned in Enumerable.Reverse(_owned))
        {
            await owned.DisposeAsync();
        }
    }
}
