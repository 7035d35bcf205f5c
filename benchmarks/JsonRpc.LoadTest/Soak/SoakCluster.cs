using System.Globalization;
using System.Net;
using JsonRpc.LoadTest.Engine;

namespace JsonRpc.LoadTest.Soak;

/// <summary>
/// The soak's servers, each a process of its own as users run them: nats-server and two routers joined through it into
/// one cluster (node A, where the callers are, and node B). Each can be killed and started again on the same port, so
/// that reconnecting clients find it where it was.
/// </summary>
internal sealed class SoakCluster : IAsyncDisposable
{
    private readonly string _routerPath;
    private readonly TimeSpan _callTimeout;
    private readonly ServerProcess?[] _nodes = new ServerProcess?[2];
    private readonly int[] _nodePorts = new int[2];
    private ServerProcess? _nats;
    private int _natsPort = -1;

    private SoakCluster(string routerPath, TimeSpan callTimeout)
    {
        _routerPath = routerPath;
        _callTimeout = callTimeout;
    }

    /// <summary>Node A: the one the callers use and whose process is sampled.</summary>
    public ServerProcess NodeA => _nodes[0] ?? throw new InvalidOperationException("Node A is not running.");

    public IPEndPoint EndPointA => new(IPAddress.Loopback, _nodePorts[0]);

    public IPEndPoint EndPointB => new(IPAddress.Loopback, _nodePorts[1]);

    public string Description { get; private set; } = string.Empty;

    public static async Task<SoakCluster> StartAsync(string routerPath, TimeSpan callTimeout, CancellationToken cancellationToken)
    {
        var cluster = new SoakCluster(routerPath, callTimeout);
        try
        {
            await cluster.StartNatsAsync(cancellationToken).ConfigureAwait(false);
            await cluster.StartNodeAsync(0, cancellationToken).ConfigureAwait(false);
            await cluster.StartNodeAsync(1, cancellationToken).ConfigureAwait(false);
            cluster.Description = cluster.NodeA.Description;
            return cluster;
        }
        catch
        {
            await cluster.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Kills node B (SIGKILL), waits <paramref name="down"/>, and starts it again on its port.</summary>
    public async Task RestartNodeBAsync(TimeSpan down, CancellationToken cancellationToken)
    {
        if (_nodes[1] is { } node)
        {
            await node.KillAsync().ConfigureAwait(false);
            await node.DisposeAsync().ConfigureAwait(false);
            _nodes[1] = null;
        }

        await Task.Delay(down, cancellationToken).ConfigureAwait(false);
        await StartNodeAsync(1, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Stops nats-server (SIGTERM), waits <paramref name="down"/>, and starts it again on its port.</summary>
    public async Task RestartNatsAsync(TimeSpan down, CancellationToken cancellationToken)
    {
        if (_nats is { } nats)
        {
            await nats.DisposeAsync().ConfigureAwait(false);
            _nats = null;
        }

        await Task.Delay(down, cancellationToken).ConfigureAwait(false);
        await StartNatsAsync(cancellationToken).ConfigureAwait(false);
    }

    private async Task StartNatsAsync(CancellationToken cancellationToken)
    {
        _nats = await ServerLaunch.StartNatsAsync(cancellationToken, _natsPort).ConfigureAwait(false);
        _natsPort = _nats.EndPoint.Port;
    }

    private async Task StartNodeAsync(int index, CancellationToken cancellationToken)
    {
        string[] arguments =
        [
            "--host", "127.0.0.1",
            "--port", Text(_nodePorts[index]),
            "--nats_url", $"nats://127.0.0.1:{Text(_natsPort)}",
            "--node_name", index == 0 ? "soak-a" : "soak-b",
            "--call_timeout_ms", Text((int)_callTimeout.TotalMilliseconds),
            "--cluster_node_timeout_ms", "3000",
        ];

        // A port just freed by a killed node may linger a moment: a few tries.
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                var node = await ServerLaunch.StartRouterAsync(_routerPath, arguments, cancellationToken).ConfigureAwait(false);
                _nodes[index] = node;
                _nodePorts[index] = node.EndPoint.Port;
                return;
            }
            catch (InvalidOperationException) when (attempt < 5)
            {
                await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken).ConfigureAwait(false);
            }
        }
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);

    public async ValueTask DisposeAsync()
    {
        foreach (var node in _nodes)
        {
            if (node is not null)
            {
                await node.DisposeAsync().ConfigureAwait(false);
            }
        }

        if (_nats is not null)
        {
            await _nats.DisposeAsync().ConfigureAwait(false);
        }
    }
}
