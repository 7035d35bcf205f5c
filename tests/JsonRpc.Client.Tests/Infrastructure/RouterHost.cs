using System.Net;
using JsonRpc.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Client.Tests.Infrastructure;

/// <summary>The real router, hosted in-process on a real Kestrel at 127.0.0.1 (port 0 unless given); the port is read back.</summary>
public sealed class RouterHost : IAsyncDisposable
{
    private readonly WebApplication _app;

    private RouterHost(WebApplication app, int port)
    {
        _app = app;
        Port = port;
        Router = app.Services.GetRequiredService<JsonRpcRouter>();
    }

    public int Port { get; }

    public JsonRpcRouter Router { get; }

    public static async Task<RouterHost> StartAsync(Action<JsonRpcRouterOptions>? configure = null, int port = 0)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.Services.AddJsonRpcRouter(options =>
        {
            options.ShutdownTimeout = TimeSpan.FromMilliseconds(500);
            configure?.Invoke(options);
        });
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port, listen => listen.UseJsonRpcRouter()));
        var app = builder.Build();
        await app.StartAsync().WaitAsync(Timeouts.Test);
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return new RouterHost(app, new Uri(address).Port);
    }

    public Task<JsonRpcClient> ConnectAsync(JsonRpcClientOptions? options = null)
        => JsonRpcClient.ConnectAsync("127.0.0.1", Port, options).WaitAsync(Timeouts.Test);

    public async ValueTask DisposeAsync()
    {
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
