using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace JsonRpc.Server.Hosting;

/// <summary>
/// The router's health for <c>AddHealthChecks</c>: Healthy while it serves, Degraded while the buffers it holds for
/// its clients are near its memory budget (<see cref="JsonRpcRouterOptions.MaxMemory"/>; it answers new calls
/// "overloaded" until they drain), Unhealthy once it is shutting down.
/// </summary>
internal sealed class JsonRpcRouterHealthCheck(JsonRpcRouter router) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var memory = router.Memory;
        var data = new Dictionary<string, object>
        {
            ["connections"] = router.GetStats().Connections,
            ["memory_held"] = memory.Held,
            ["memory_max"] = memory.Max,
        };
        var result = router.IsShuttingDown
            ? new HealthCheckResult(context.Registration.FailureStatus, "Shutting down", data: data)
            : memory.IsNearLimit
                ? HealthCheckResult.Degraded($"Near the memory budget: {memory.Held} of {memory.Max} bytes held", data: data)
                : HealthCheckResult.Healthy("Serving", data);
        return Task.FromResult(result);
    }
}
