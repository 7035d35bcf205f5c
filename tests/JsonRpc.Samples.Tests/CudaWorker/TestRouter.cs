using JsonRpc.Client;
using JsonRpc.Testing;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>The shared <see cref="RouterHost"/> with a 20 s call timeout, and a registered client to call through it.</summary>
internal sealed class TestRouter : IAsyncDisposable
{
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(20);

    private readonly RouterHost _host;

    private TestRouter(RouterHost host, JsonRpcClient caller)
    {
        _host = host;
        Caller = caller;
    }

    public int Port => _host.Port;

    /// <summary>A registered client that calls the workers' methods through the router.</summary>
    public JsonRpcClient Caller { get; }

    public static async Task<TestRouter> StartAsync()
    {
        var host = await RouterHost.StartAsync(options => options.CallTimeout = CallTimeout);
        JsonRpcClient? caller = null;
        try
        {
            caller = await JsonRpcClient.ConnectAsync("127.0.0.1", host.Port, new JsonRpcClientOptions { CallTimeout = CallTimeout }).WaitAsync(TimeSpan.FromSeconds(10));
            await caller.RegisterAsync("test-caller").WaitAsync(TimeSpan.FromSeconds(10));
            return new TestRouter(host, caller);
        }
        catch
        {
            if (caller is not null)
            {
                await caller.DisposeAsync();
            }

            await host.DisposeAsync();
            throw;
        }
    }

    public Task<RunningWorker> StartWorkerAsync(string? name = null, IReadOnlyDictionary<string, string>? environment = null)
        => RunningWorker.StartAsync(Caller, Port, name, environment);

    public async ValueTask DisposeAsync()
    {
        await Caller.DisposeAsync();
        await _host.DisposeAsync();
    }
}
