using JsonRpc.Server.Hosting;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Reports the JSON-RPC router's health through ASP.NET Core health checks.</summary>
public static class JsonRpcRouterHealthChecksBuilderExtensions
{
    /// <summary>
    /// Adds the hosted router's health (<c>AddJsonRpcRouter</c>): Healthy while it serves, Degraded while the buffers it
    /// holds for its clients are near its memory budget (<c>max_memory</c>), and <paramref name="failureStatus"/>
    /// (default Unhealthy) once it is shutting down. Map it with <c>app.MapHealthChecks("/healthz")</c>: 200 while
    /// Healthy or Degraded, 503 when Unhealthy.
    /// </summary>
    /// <param name="builder">The health checks builder.</param>
    /// <param name="name">The check's name in the report.</param>
    /// <param name="failureStatus">The status reported once the router is shutting down; null for Unhealthy.</param>
    /// <param name="tags">Tags to filter checks by.</param>
    public static IHealthChecksBuilder AddJsonRpcRouter(
        this IHealthChecksBuilder builder, string name = "jsonrpc-router", HealthStatus? failureStatus = null, IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrEmpty(name);
        return builder.Add(new HealthCheckRegistration(
            name, static services => new JsonRpcRouterHealthCheck(services.GetRequiredService<JsonRpc.Server.JsonRpcRouter>()), failureStatus, tags));
    }
}
