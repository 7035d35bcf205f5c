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

    /// <summary>
    /// Makes Kestrel's socket transport read and write through pooled blocks of <paramref name="blockSize"/> bytes
    /// (default 128 KiB) instead of its own 4 KB blocks, so that a large message arrives in a few <c>recv</c> calls
    /// instead of one per 4 KB. It applies to every Kestrel endpoint of the app (Kestrel has one pool factory), HTTP
    /// included. A connection holds a block only while bytes wait in its pipes: idle connections hold none, and the
    /// router's limits on each connection are unchanged. Up to <paramref name="retainedBytes"/> (default 16 MiB) of
    /// returned blocks are kept for reuse. The standalone router (src/JsonRpc.Router) calls it.
    /// </summary>
    public static IServiceCollection AddJsonRpcRouterLargeBlocks(this IServiceCollection services, int blockSize = 128 * 1024, int retainedBytes = 16 * 1024 * 1024)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentOutOfRangeException.ThrowIfLessThan(blockSize, 4096);
        ArgumentOutOfRangeException.ThrowIfNegative(retainedBytes);
        services.RemoveAll<Microsoft.AspNetCore.Connections.IMemoryPoolFactory<byte>>();
        services.AddSingleton<Microsoft.AspNetCore.Connections.IMemoryPoolFactory<byte>>(new JsonRpc.Server.Transport.LargeBlockMemoryPoolFactory(blockSize, retainedBytes / blockSize));
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
