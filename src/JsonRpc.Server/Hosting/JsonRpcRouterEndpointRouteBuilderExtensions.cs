using JsonRpc.Server;
using JsonRpc.Server.Web;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Puts the JSON-RPC router and its dashboard on ASP.NET Core endpoint routing.</summary>
public static class JsonRpcRouterEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Serves the router (registered with <c>services.AddJsonRpcRouter()</c>) at <paramref name="pattern"/>:
    /// <list type="bullet">
    /// <item>a <b>WebSocket</b> there is a router connection like a TCP one — it registers, provides methods, calls,
    /// subscribes and publishes, under the same limits — with one JSON-RPC message or batch per text message;</item>
    /// <item>a <b>POST</b> of one message or batch (<c>Content-Type: application/json</c>) is answered in the response
    /// body (204 when there is nothing to answer, 413 past the maximum message size); with an access token configured
    /// it must carry <c>Authorization: Bearer &lt;token&gt;</c>.</item>
    /// </list>
    /// WebSocket support is added for this endpoint alone; <c>app.UseWebSockets()</c> is not needed.
    /// </summary>
    /// <param name="endpoints">The app or route group.</param>
    /// <param name="pattern">The route, <c>/rpc</c> by default.</param>
    /// <returns>The endpoint's convention builder, e.g. for <c>RequireAuthorization</c> or <c>RequireCors</c>.</returns>
    public static IEndpointConventionBuilder MapJsonRpcRouter(this IEndpointRouteBuilder endpoints, string pattern = "/rpc")
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrEmpty(pattern);
        var endpoint = new JsonRpcRouterEndpoint(endpoints.ServiceProvider.GetRequiredService<JsonRpcRouter>());
        var pipeline = endpoints.CreateApplicationBuilder().UseWebSockets();
        pipeline.Run(endpoint.InvokeAsync);
        return endpoints.Map(pattern, pipeline.Build()).WithDisplayName("JSON-RPC router " + pattern);
    }

    /// <summary>
    /// Serves the router's live dashboard at <paramref name="pattern"/>: connections, registered clients, methods
    /// and their providers, calls and errors per second, and a form that calls any method. A static page embedded in
    /// this assembly that talks JSON-RPC to the router over the WebSocket at <paramref name="rpcPath"/>.
    /// </summary>
    /// <param name="endpoints">The app or route group.</param>
    /// <param name="pattern">Where the page is served, <c>/</c> by default; its script and style sheet are beside it.</param>
    /// <param name="rpcPath">The path given to <see cref="MapJsonRpcRouter"/>, <c>/rpc</c> by default.</param>
    /// <returns>The convention builder of the dashboard's endpoints.</returns>
    public static IEndpointConventionBuilder MapJsonRpcDashboard(this IEndpointRouteBuilder endpoints, string pattern = "/", string rpcPath = "/rpc")
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrEmpty(pattern);
        ArgumentException.ThrowIfNullOrEmpty(rpcPath);
        return DashboardFiles.Map(endpoints, pattern, rpcPath);
    }

    /// <summary>
    /// Maps <c>GET {pattern}</c> to the router's metrics in Prometheus' text exposition format: every instrument of the
    /// <c>JsonRpc.Router</c> meter (and the other <c>JsonRpc.*</c> meters), named as the OpenTelemetry Prometheus
    /// exporter names them (<c>jsonrpc_router_calls_routed_total</c>). Observable instruments are read at each scrape;
    /// nothing is collected between scrapes.
    /// </summary>
    /// <param name="endpoints">The app's endpoints.</param>
    /// <param name="pattern">The path, <c>/metrics</c> by default (what Prometheus scrapes unless told otherwise).</param>
    public static IEndpointConventionBuilder MapJsonRpcMetrics(this IEndpointRouteBuilder endpoints, string pattern = "/metrics")
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrEmpty(pattern);
        var exporter = endpoints.ServiceProvider.GetRequiredService<JsonRpc.Server.Diagnostics.PrometheusExporter>();
        RequestDelegate scrape = async context =>
        {
            context.Response.ContentType = JsonRpc.Server.Diagnostics.PrometheusExporter.ContentType;
            context.Response.Headers.CacheControl = "no-store";
            exporter.Write(context.Response.BodyWriter);
            await context.Response.BodyWriter.FlushAsync(context.RequestAborted).ConfigureAwait(false);
        };
        return endpoints.MapGet(pattern, scrape).WithDisplayName("JSON-RPC router metrics " + pattern);
    }
}
