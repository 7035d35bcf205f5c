using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// A nats-server and two standalone router processes joined through it (nodes a and b), with a provider of
/// <c>b.work</c> on b and a caller on a, once a lists the method.
/// </summary>
public sealed class TwoProcesses : IAsyncDisposable
{
    // A cold process on a machine that may be loaded: generous, and only a failure waits this long.
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    private NatsServer? _nats;
    private RouterProcess? _a;
    private ITestOutputHelper? _output;

    public RouterProcess B { get; private set; } = null!;

    public LineClient Provider { get; private set; } = null!;

    public LineClient Caller { get; private set; } = null!;

    public static Task<TwoProcesses> StartAsync(ITestOutputHelper output, params string[] args)
        => StartAsync(output, natsArguments: [], args);

    /// <param name="natsArguments">More nats-server arguments, such as <c>-c</c> and a configuration file.</param>
    /// <param name="args">More arguments for both routers.</param>
    public static async Task<TwoProcesses> StartAsync(ITestOutputHelper output, string[] natsArguments, params string[] args)
    {
        var nodes = new TwoProcesses { _output = output };
        try
        {
            nodes._nats = await NatsServer.StartAsync(0, natsArguments);
            string[] common = ["--nats_url", nodes._nats.Url, .. args];
            nodes._a = await RouterProcess.StartListeningAsync([.. common, "--node_name", "a"], StartTimeout);
            nodes.B = await RouterProcess.StartListeningAsync([.. common, "--node_name", "b"], StartTimeout);
            nodes.Provider = await LineClient.ConnectAsync(nodes.B.Port);
            await nodes.Provider.RegisterAsync("on-b");
            await nodes.Provider.ProvideAsync("b.work");
            nodes.Caller = await LineClient.ConnectAsync(nodes._a.Port);
            await nodes.Caller.RegisterAsync("on-a");
            var caller = nodes.Caller;
            await Eventually.TrueAsync(() => ClusterFailureTests.ListsMethod(caller, "b.work").GetAwaiter().GetResult(), "node a lists b.work", TimeSpan.FromSeconds(20));
            return nodes;
        }
        catch
        {
            await nodes.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in new[] { Caller, Provider })
        {
            if (client is not null)
            {
                await client.DisposeAsync();
            }
        }

        foreach (var (name, router) in new[] { ("a", _a), ("b", B) })
        {
            if (router is not null)
            {
                await router.DisposeAsync();
                _output?.WriteLine($"--- router {name} ---{Environment.NewLine}{router.Log}");
            }
        }

        if (_nats is not null)
        {
            await _nats.DisposeAsync();
        }
    }
}
