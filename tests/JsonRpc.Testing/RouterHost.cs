using System.Net;
using JsonRpc.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Testing;

/// <summary>
/// The real <see cref="JsonRpcRouter"/> hosted in-process on a real Kestrel at 127.0.0.1 (port 0 unless given), for
/// tests; the bound port is read back from the server.
/// </summary>
public sealed class RouterHost : IAsyncDisposable
{
    /// <summary>How long starting the app may take before <see cref="StartAsync"/> gives up.</summary>
    public static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(10);

    /// <summary>How long stopping the app may take before <see cref="StopAsync"/> gives up.</summary>
    public static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(15);

    private readonly WebApplication _app;

    private RouterHost(WebApplication app, int port, int? httpPort)
    {
        _app = app;
        Port = port;
        HttpPort = httpPort;
        Router = app.Services.GetRequiredService<JsonRpcRouter>();
    }

    /// <summary>The port Kestrel is bound to on 127.0.0.1.</summary>
    public int Port { get; }

    /// <summary>The HTTP port on 127.0.0.1 when started with <c>http: true</c>, else null.</summary>
    public int? HttpPort { get; }

    /// <summary>The router's HTTP endpoint (POST), <c>http://127.0.0.1:{HttpPort}/rpc</c>.</summary>
    public Uri RpcUri => new($"http://127.0.0.1:{HttpPort ?? throw NoHttp()}/rpc");

    /// <summary>The router's WebSocket endpoint, <c>ws://127.0.0.1:{HttpPort}/rpc</c>.</summary>
    public Uri WebSocketUri => new($"ws://127.0.0.1:{HttpPort ?? throw NoHttp()}/rpc");

    /// <summary>The dashboard, <c>http://127.0.0.1:{HttpPort}/</c>.</summary>
    public Uri DashboardUri => new($"http://127.0.0.1:{HttpPort ?? throw NoHttp()}/");

    /// <summary>The router the app serves.</summary>
    public JsonRpcRouter Router { get; }

    /// <summary>The app's services.</summary>
    public IServiceProvider Services => _app.Services;

    /// <summary>Builds and starts the router on 127.0.0.1 and reads the bound port back.</summary>
    /// <param name="configure">
    /// Sets router options; runs after the defaults here (a 500 ms <see cref="JsonRpcRouterOptions.ShutdownTimeout"/>,
    /// so that disposing is quick), which it may override.
    /// </param>
    /// <param name="port">The port to listen on; 0 (the default) lets the system pick a free one.</param>
    /// <param name="logger">Receives the app's logs from <see cref="LogLevel.Debug"/> up; without it nothing is logged.</param>
    /// <param name="setup">Runs on the router after the app is built and before it starts (e.g. to add host methods).</param>
    /// <param name="build">Runs on the builder last, before the app is built.</param>
    /// <param name="http">
    /// Also listen for HTTP on another free port of 127.0.0.1 (<see cref="HttpPort"/>), with the router's WebSocket and
    /// POST endpoint at <c>/rpc</c> and its dashboard at <c>/</c>.
    /// </param>
    /// <returns>The started host; dispose it to stop the app.</returns>
    public static async Task<RouterHost> StartAsync(
        Action<JsonRpcRouterOptions>? configure = null,
        int port = 0,
        ILoggerProvider? logger = null,
        Action<JsonRpcRouter>? setup = null,
        Action<WebApplicationBuilder>? build = null,
        bool http = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        if (logger is not null)
        {
            builder.Logging.AddProvider(logger);
            builder.Logging.SetMinimumLevel(LogLevel.Debug);
        }

        builder.Services.AddJsonRpcRouter(options =>
        {
            options.ShutdownTimeout = TimeSpan.FromMilliseconds(500);
            configure?.Invoke(options);
        });
        ListenOptions? tcpListener = null, httpListener = null;
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, port, listen => (tcpListener = listen).UseJsonRpcRouter());
            if (http)
            {
                kestrel.Listen(IPAddress.Loopback, 0, listen => httpListener = listen);
            }
        });
        build?.Invoke(builder);
        var app = builder.Build();
        if (http)
        {
            app.MapJsonRpcRouter("/rpc");
            app.MapJsonRpcDashboard("/");
            app.MapJsonRpcMetrics("/metrics");
        }

        try
        {
            setup?.Invoke(app.Services.GetRequiredService<JsonRpcRouter>());
            await app.StartAsync().WaitAsync(StartTimeout);
            return new RouterHost(app, BoundPort(tcpListener!), httpListener is null ? null : BoundPort(httpListener));
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }
    }

    // Kestrel replaces a listener's endpoint with the one it bound (the real port for port 0).
    private static int BoundPort(ListenOptions listener) => ((IPEndPoint)listener.EndPoint).Port;

    private static InvalidOperationException NoHttp() => new("The router host was started without http: true.");

    /// <summary>Stops the app: the router closes its connections within its shutdown timeout.</summary>
    public Task StopAsync() => _app.StopAsync().WaitAsync(StopTimeout);

    /// <summary>Stops the app (see <see cref="StopAsync"/>), then disposes it even if stopping failed.</summary>
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
