using System.Net;
using JsonRpc.Protocol;
using JsonRpc.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The router under test, in this process: Kestrel on 127.0.0.1 port 0 (the bound port is read back), the router's
/// defaults except the limits the workload needs (pending calls per connection above the window, messages above the
/// payload). Logs warnings and errors only, to standard error.
/// </summary>
internal sealed class RouterHost : IAsyncDisposable
{
    private readonly WebApplication _app;

    private RouterHost(WebApplication app, IPEndPoint endPoint)
    {
        _app = app;
        EndPoint = endPoint;
        Router = app.Services.GetRequiredService<JsonRpcRouter>();
    }

    public IPEndPoint EndPoint { get; }

    public JsonRpcRouter Router { get; }

    public static async Task<RouterHost> StartAsync(LoadOptions options, CancellationToken cancellationToken)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.Logging.AddSimpleConsole(console => console.SingleLine = true);
        builder.Logging.Services.Configure<Microsoft.Extensions.Logging.Console.ConsoleLoggerOptions>(console => console.LogToStandardErrorThreshold = LogLevel.Trace);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        var limits = RouterLimits.For(options);
        builder.Services.AddJsonRpcRouter(router =>
        {
            router.Host = "127.0.0.1";
            router.Port = 0;
            router.MaxPendingCallsPerConnection = limits.MaxPendingCalls;
            router.MaxMessageSize = limits.MaxMessageSize;
            router.MaxConnections = limits.MaxConnections;
            router.MaxOutboundBufferSize = Math.Max(router.MaxOutboundBufferSize, limits.MaxMessageSize);
        });
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.ListenJsonRpcRouter());
        var app = builder.Build();
        if (options.Direct)
        {
            // The echo as a host method: the router parses, dispatches and answers it itself.
            app.Services.GetRequiredService<JsonRpcRouter>().Methods.AddRaw(EchoPayload.Method, static (parameters, _) => new ValueTask<RawJson>(parameters));
        }

        await app.StartAsync(cancellationToken).WaitAsync(TimeSpan.FromSeconds(30), cancellationToken).ConfigureAwait(false);
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        var uri = new Uri(address);
        return new RouterHost(app, new IPEndPoint(IPAddress.Parse(uri.Host), uri.Port));
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await _app.StopAsync().WaitAsync(TimeSpan.FromSeconds(15)).ConfigureAwait(false);
        }
        finally
        {
            await _app.DisposeAsync().ConfigureAwait(false);
        }
    }
}
