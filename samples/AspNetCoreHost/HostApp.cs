using JsonRpc.Server;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace AspNetCoreHost;

/// <summary>
/// An ASP.NET Core app with HTTP endpoints (<c>/healthz</c>, <c>/stats</c>) and the JSON-RPC router on a TCP endpoint of
/// the same Kestrel server, plus in-process methods the router serves itself: <c>time</c>, and the <see cref="IGreeter"/>
/// contract's <c>greet</c>, served from DI with a scope per call. The router is also on the HTTP endpoint: <c>/rpc</c>
/// takes WebSockets and POSTs, and <c>/dashboard</c> shows it live. <c>/healthz</c> is ASP.NET Core's health checks,
/// with the router's.
/// </summary>
public static class HostApp
{
    public static WebApplication Build(string[] args, int httpPort, int routerPort)
    {
        var builder = WebApplication.CreateSlimBuilder(args);
        builder.Services.AddJsonRpcRouter(options => options.CallTimeout = TimeSpan.FromSeconds(10));
        builder.Services.AddJsonRpcTarget<IGreeter, Greeter>(); // served by the router, a DI scope per call
        builder.Services.AddHealthChecks().AddJsonRpcRouter();  // Healthy, Degraded near the memory budget, Unhealthy when stopping
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(System.Net.IPAddress.Loopback, httpPort, listen => listen.Protocols = HttpProtocols.Http1);
            kestrel.Listen(System.Net.IPAddress.Loopback, routerPort, listen => listen.UseJsonRpcRouter());
        });
        builder.Services.ConfigureHttpJsonOptions(json => json.SerializerOptions.TypeInfoResolverChain.Insert(0, HostJson.Default));

        var app = builder.Build();
        var router = app.Services.GetRequiredService<JsonRpcRouter>();
        router.AddMethod("time", static () => DateTimeOffset.UtcNow, HostJson.Default.DateTimeOffset);

        app.MapHealthChecks("/healthz");
        app.MapGet("/stats", (JsonRpcRouter r) => Results.Ok(r.GetStats()));
        app.MapJsonRpcRouter("/rpc");
        app.MapJsonRpcDashboard("/dashboard", "/rpc");
        return app;
    }
}
