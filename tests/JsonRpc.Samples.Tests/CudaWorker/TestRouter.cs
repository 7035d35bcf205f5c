using System.Net;
using JsonRpc.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A real router on Kestrel at 127.0.0.1, port 0 (the bound port read back), and a client to call through it.</summary>
internal sealed class TestRouter : IAsyncDisposable
{
    private readonly WebApplication _app;

    private TestRouter(WebApplication app, int port, JsonRpcClient caller)
    {
        _app = app;
        Port = port;
        Caller = caller;
    }

    public int Port { get; }

    /// <summary>A registered client that calls the workers' methods through the router.</summary>
    public JsonRpcClient Caller { get; }

    public static async Task<TestRouter> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.Services.AddJsonRpcRouter(options =>
        {
            options.CallTimeout = TimeSpan.FromSeconds(20);
            options.ShutdownTimeout = TimeSpan.FromMilliseconds(500);
        });
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => listen.UseJsonRpcRouter()));
        var app = builder.Build();
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
        try
        {
            var port = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()).Port;
            var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", port, new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(20) }).WaitAsync(TimeSpan.FromSeconds(10));
            await caller.RegisterAsync("test-caller").WaitAsync(TimeSpan.FromSeconds(10));
            return new TestRouter(app, port, caller);
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }
    }

    public Task<RunningWorker> StartWorkerAsync(string? name = null, IReadOnlyDictionary<string, string>? environment = null)
        => RunningWorker.StartAsync(Caller, Port, name, environment);

    public async ValueTask DisposeAsync()
    {
        await Caller.DisposeAsync();
        try
        {
            await _app.StopAsync().WaitAsync(TimeSpan.FromSeconds(15));
        }
        finally
        {
            await _app.DisposeAsync();
        }
    }
}
