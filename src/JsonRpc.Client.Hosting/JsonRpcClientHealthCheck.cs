using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace JsonRpc.Client.Hosting;

/// <summary>A hosted client's health: Healthy while connected, Degraded while it reconnects, Unhealthy when it is not connected and will not be.</summary>
internal sealed class JsonRpcClientHealthCheck(HostedJsonRpcClient hosted) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var state = hosted.Current?.State;
        var result = state switch
        {
            JsonRpcClientState.Connected => HealthCheckResult.Healthy($"Connected to {hosted.Current!.Uri}"),
            JsonRpcClientState.Reconnecting or JsonRpcClientState.Connecting => HealthCheckResult.Degraded($"Reconnecting to {hosted.Current!.Uri}"),
            null => new HealthCheckResult(context.Registration.FailureStatus, $"The JSON-RPC client '{hosted.Name}' has not connected (the host has not started, or has stopped)"),
            _ => new HealthCheckResult(context.Registration.FailureStatus, $"The JSON-RPC client '{hosted.Name}' is {state} and will not reconnect"),
        };
        return Task.FromResult(result);
    }
}
