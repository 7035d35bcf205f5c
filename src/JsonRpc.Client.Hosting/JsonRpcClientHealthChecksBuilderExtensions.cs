using JsonRpc.Client.Hosting;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Reports hosted JSON-RPC clients' health through health checks.</summary>
public static class JsonRpcClientHealthChecksBuilderExtensions
{
    /// <summary>
    /// Adds the health of the hosted client <paramref name="clientName"/> (<c>AddJsonRpcClient</c>): Healthy while
    /// connected, Degraded while it reconnects, <paramref name="failureStatus"/> (default Unhealthy) when it is not
    /// connected and will not be (before the host starts, after it stops, or once reconnecting gave up).
    /// </summary>
    /// <param name="builder">The health checks builder.</param>
    /// <param name="clientName">The hosted client's name.</param>
    /// <param name="name">The check's name in the report; default <c>jsonrpc-client-{clientName}</c>.</param>
    /// <param name="failureStatus">The status when not connected; null for Unhealthy.</param>
    /// <param name="tags">Tags to filter checks by.</param>
    public static IHealthChecksBuilder AddJsonRpcClient(
        this IHealthChecksBuilder builder, string clientName, string? name = null, HealthStatus? failureStatus = null, IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrWhiteSpace(clientName);
        return builder.Add(new HealthCheckRegistration(
            name ?? $"jsonrpc-client-{clientName}",
            services => new JsonRpcClientHealthCheck(services.GetRequiredKeyedService<HostedJsonRpcClient>(clientName)),
            failureStatus,
            tags));
    }
}
