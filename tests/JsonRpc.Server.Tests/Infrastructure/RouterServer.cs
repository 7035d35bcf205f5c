using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>A real Kestrel on 127.0.0.1 port 0 serving the router; the bound port is read back from the server.</summary>
public sealed class RouterServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private RouterServer(WebApplication app, int port)
    {
        _app = app;
        Port = port;
        Router = app.Services.GetRequiredService<JsonRpcRouter>();
    }

    public int Port { get; }

    public JsonRpcRouter Router { get; }

    public IServiceProvider Services => _app.Services;

    public static async Task<RouterServer> StartAsync(
        Action<JsonRpcRouterOptions>? configure = null,
        ITestOutputHelper? output = null,
        Action<JsonRpcRouter>? setup = null,
        Action<WebApplicationBuilder>? build = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        if (output is not null)
        {
            builder.Logging.AddProvider(new TestOutputLoggerProvider(output));
            builder.Logging.SetMinimumLevel(LogLevel.Debug);
        }

        builder.Services.AddJsonRpcRouter(options =>
        {
            // Short timeouts so the suite stays fast; tests that need others set them.
            options.CallTimeout = TimeSpan.FromSeconds(5);
            options.ShutdownTimeout = TimeSpan.FromMilliseconds(500);
            configure?.Invoke(options);
        });
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => listen.UseJsonRpcRouter()));
        build?.Invoke(builder);
        var app = builder.Build();
        setup?.Invoke(app.Services.GetRequiredService<JsonRpcRouter>());
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return new RouterServer(app, new Uri(address).Port);
    }

    public Task<LineClient> ConnectAsync() => LineClient.ConnectAsync(Port);

    public async Task<LineClient> ConnectRegisteredAsync(string name, params string[] methods)
    {
        var client = await ConnectAsync();
        await client.RegisterAsync(name);
        foreach (var method in methods)
        {
            await client.ProvideAsync(method);
        }

        return client;
    }

    public Task StopAsync() => _app.StopAsync().WaitAsync(TimeSpan.FromSeconds(15));

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        finally
        {
            await _app.DisposeAsync();
        }
    }
}
