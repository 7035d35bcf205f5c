using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Hosting;

namespace JsonRpc.Server.Cluster.Hosting;

/// <summary>
/// Joins the host's router to its cluster once the server listens (so that the default node name can carry the real
/// port), and leaves it after the router has shut down.
/// </summary>
internal sealed class JsonRpcClusterLifetime(
    JsonRpcRouter router, IOptions<JsonRpcClusterOptions> options, IServiceProvider services, ILoggerFactory loggerFactory)
    : IHostedLifecycleService
{
    /// <summary>The cluster, once started; null when no NATS URL is configured.</summary>
    public JsonRpcCluster? Cluster { get; private set; }

    public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public async Task StartedAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        if (!settings.IsEnabled)
        {
            return;
        }

        settings.NodeName ??= JsonRpcCluster.DefaultNodeName(ListeningPort() ?? router.Options.Port);
        var cluster = new JsonRpcCluster(router, settings, loggerFactory);
        try
        {
            await cluster.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            // The host fails to start and will not call StoppedAsync: leave nothing trying to reach NATS behind.
            await cluster.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        Cluster = cluster;
    }

    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public async Task StoppedAsync(CancellationToken cancellationToken)
    {
        if (Cluster is { } cluster)
        {
            await cluster.DisposeAsync().ConfigureAwait(false);
        }
    }

    private int? ListeningPort()
    {
        var addresses = (services.GetService(typeof(IServer)) as IServer)?.Features.Get<IServerAddressesFeature>()?.Addresses;
        foreach (var address in addresses ?? [])
        {
            if (Uri.TryCreate(address, UriKind.Absolute, out var uri))
            {
                return uri.Port;
            }
        }

        return null;
    }
}
