using JsonRpc.Server;
using JsonRpc.Server.Cluster;
using JsonRpc.Server.Cluster.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Joins the host's JSON-RPC router to a cluster through NATS.</summary>
public static class JsonRpcClusterServiceCollectionExtensions
{
    /// <summary>
    /// Joins the router added by <c>AddJsonRpcRouter</c> to the cluster configured in the <c>JsonRpcRouter</c>
    /// configuration section (<c>nats_url</c>, <c>node_name</c>, …), then by <paramref name="configure"/>. Without a
    /// NATS URL this adds nothing to the router's path: it runs on its own.
    /// </summary>
    public static IServiceCollection AddJsonRpcCluster(this IServiceCollection services, Action<JsonRpcClusterOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<JsonRpcClusterOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IConfigureOptions<JsonRpcClusterOptions>, ConfigureFromConfiguration>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<JsonRpcClusterOptions>, Validator>());
        if (configure is not null)
        {
            services.Configure(configure);
        }

        services.TryAddSingleton<JsonRpcClusterLifetime>();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, JsonRpcClusterLifetime>(static s => s.GetRequiredService<JsonRpcClusterLifetime>()));
        return services;
    }

    private sealed class ConfigureFromConfiguration(IServiceProvider services) : IConfigureOptions<JsonRpcClusterOptions>
    {
        public void Configure(JsonRpcClusterOptions options)
        {
            if (services.GetService(typeof(IConfiguration)) is IConfiguration configuration)
            {
                JsonRpcClusterConfiguration.Bind(configuration.GetSection(JsonRpcRouterOptions.SectionName), options);
            }
        }
    }

    private sealed class Validator : IValidateOptions<JsonRpcClusterOptions>
    {
        public ValidateOptionsResult Validate(string? name, JsonRpcClusterOptions options)
            => JsonRpcClusterConfiguration.Validate(options) is { } problem ? ValidateOptionsResult.Fail(problem) : ValidateOptionsResult.Success;
    }
}
