using JsonRpc.Server;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace AspNetCoreHost;

/// <summary>
/// An ASP.NET Core app with HTTP endpoints (<c>/healthz</c>, <c>/stats</c>) and the JSON-RPC router on a TCP endpoint of
/// the same Kestrel server, plus one in-process method (<c>time</c>) the router serves itself. The router is also on
/// the HTTP endpoint: <c>/rpc</c> takes WebSockets and POSTs, and <c>/dashboard</c> shows it live.
/// </summary>
public static class HostApp
{
    public static WebApplication Build(string[] args, int httpPort, int routerPort)
    {
        var builder = WebApplication.CreateSlimBuilder(args);
        builder.Services.AddJsonRpcRouter(options => options.CallTimeout = TimeSpan.FromSeconds(10));
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(System.Net.IPAddress.Loopback, httpPort, listen => listen.Protocols = HttpProtocols.Http1);
            kestrel.Listen(System.Net.IPAddress.Loopback, routerPort, listen => listen.UseJsonRpcRouter());
        });
        builder.Services.ConfigureHttpJsonOptions(json => json.SerializerOptions.TypeInfoResolverChain.Insert(0, HostJson.Default));

        var app = builder.Build();
        var router = app.Services.GetRequiredService<JsonRpcRouter>();
        router.AddMethod("time", static () => DateTimeOffset.UtcNow, HostJson.Default.DateTimeOffset);

        app.MapGet("/healthz", (JsonRpcRouter r) =>
        {
            var stats = r.GetStats();
            return Results.Ok(new HealthReport("ok", stats.Connections, stats.Uptime.TotalSeconds));
        });
        app.MapGet("/stats", (JsonRpcRouter r) => Results.Ok(r.GetStats()));
        app.MapJsonRpcRouter("/rpc");
        app.MapJsonRpcDashboard("/dashboard", "/rpc");
        return app;
    }
}
