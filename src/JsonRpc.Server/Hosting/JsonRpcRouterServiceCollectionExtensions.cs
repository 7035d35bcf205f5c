using JsonRpc.Server;
using JsonRpc.Server.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers the JSON-RPC router in a service collection.</summary>
public static class JsonRpcRouterServiceCollectionExtensions
{
    /// <summary>
    /// Adds the <see cref="JsonRpcRouter"/>, its <see cref="JsonRpcConnectionHandler"/> and the graceful shutdown that
    /// fails pending calls when the host stops. Options come from the <c>JsonRpcRouter</c> configuration section (if
    /// an <see cref="IConfiguration"/> is registered), then <paramref name="configure"/>.
    /// </summary>
    public static IServiceCollection AddJsonRpcRouter(this IServiceCollection services, Action<JsonRpcRouterOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<JsonRpcRouterOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IConfigureOptions<JsonRpcRouterOptions>, ConfigureFromConfiguration>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<JsonRpcRouterOptions>, JsonRpcRouterOptionsValidator>());
        if (configure is not null)
        {
            services.Configure(configure);
        }

        services.TryAddSingleton<JsonRpcRouter>();
        services.TryAddSingleton<JsonRpcConnectionHandler>();
        services.TryAddSingleton<JsonRpcRouterListeners>();
        services.TryAddSingleton<JsonRpc.Server.Diagnostics.PrometheusExporter>(); // made only where /metrics is mapped
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, JsonRpcRouterLifetime>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, JsonRpcSecurityReloader>());
        return services;
    }

    private sealed class ConfigureFromConfiguration(IServiceProvider services) : IConfigureOptions<JsonRpcRouterOptions>
    {
        public void Configure(JsonRpcRouterOptions options)
        {
            if (services.GetService(typeof(IConfiguration)) is IConfiguration configuration)
            {
                JsonRpcRouterConfiguration.Bind(configuration.GetSection(JsonRpcRouterOptions.SectionName), options);
            }
        }
    }
}
