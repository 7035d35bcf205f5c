using JsonRpc.Hosting;
using JsonRpc.Server.Diagnostics;
using Microsoft.Extensions.Hosting;

namespace JsonRpc.Server.Hosting;

/// <summary>
/// Shuts the router down as the host begins to stop, before Kestrel stops: pending calls are answered or failed and
/// every client gets its last replies before its connection closes. Before Kestrel starts, it serves the contracts of
/// <c>AddJsonRpcTarget</c> (those for no named client) as host methods, each call from a new scope.
/// </summary>
internal sealed class JsonRpcRouterLifetime(JsonRpcRouter router, IServiceProvider services, IEnumerable<JsonRpcTargetRegistration> targets)
    : IHostedLifecycleService, IJsonRpcTargetHost
{
    public Task StartingAsync(CancellationToken cancellationToken)
    {
        foreach (var target in targets)
        {
            if (target.ClientName is null)
            {
                target.AddTo(this, services);
            }
        }

        return Task.CompletedTask;
    }

    void IJsonRpcTargetHost.AddTarget<TContract>(TContract target) => router.AddTarget(target);

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>
    /// Once Kestrel listens: says in the router's words where it serves raw JSON-RPC, since Kestrel's own "Now listening
    /// on: http://…" lines name those endpoints as HTTP. The standalone router (ListenJsonRpcRouter) writes its own.
    /// </summary>
    public Task StartedAsync(CancellationToken cancellationToken)
    {
        if (router.Listeners is null)
        {
            foreach (var endpoint in router.RawEndpoints)
            {
                RouterLog.ListeningRaw(router.Logger, endpoint.EndPoint?.ToString() ?? "an endpoint of the app");
            }
        }

        return Task.CompletedTask;
    }

    public Task StoppingAsync(CancellationToken cancellationToken) => router.ShutdownAsync(cancellationToken);

    public Task StopAsync(CancellationToken cancellationToken) => router.ShutdownAsync(cancellationToken);

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
