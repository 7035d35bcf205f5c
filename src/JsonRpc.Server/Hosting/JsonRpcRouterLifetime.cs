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

    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppingAsync(CancellationToken cancellationToken) => router.ShutdownAsync(cancellationToken);

    public Task StopAsync(CancellationToken cancellationToken) => router.ShutdownAsync(cancellationToken);

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
