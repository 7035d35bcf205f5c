using JsonRpc.Server.Diagnostics;
using Microsoft.Extensions.Hosting;

namespace JsonRpc.Server.Hosting;

/// <summary>
/// Shuts the router down as the host begins to stop, before Kestrel stops: pending calls are answered or failed and
/// every client gets its last replies before its connection closes.
/// </summary>
internal sealed class JsonRpcRouterLifetime(JsonRpcRouter router) : IHostedLifecycleService
{
    public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

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
