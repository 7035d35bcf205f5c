using System.Diagnostics.CodeAnalysis;
using JsonRpc.Client;
using JsonRpc.Client.Hosting;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds JSON-RPC clients to a .NET host: one connection each, typed proxies from dependency injection, targets with a scope per call.</summary>
public static class JsonRpcClientServiceCollectionExtensions
{
    /// <summary>
    /// Adds the hosted client <paramref name="name"/>: one <see cref="JsonRpcClient"/> (keyed by the name) that connects
    /// when the host starts (retrying with <see cref="JsonRpcReconnectOptions"/>'s back-off until it connects, so the
    /// host starts once it has), reconnects by itself after a loss, serves every
    /// <c>AddJsonRpcTarget&lt;TContract, TImplementation&gt;(name)</c> with a scope per call, and is closed when the
    /// host stops. Options come from the configuration section <c>JsonRpc:Clients:{name}</c>, then
    /// <paramref name="configure"/>; they are checked when the host starts, with errors that name the setting. Calling
    /// it again with the same name adds to the same client.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The client's name: its configuration section and key.</param>
    /// <param name="configure">Sets options after the configuration.</param>
    /// <returns>A builder to add the client's proxies (<see cref="AddProxy{TContract}"/>) and targets (<see cref="AddTarget{TContract, TImplementation}"/>).</returns>
    public static IJsonRpcClientBuilder AddJsonRpcClient(this IServiceCollection services, string name, Action<JsonRpcHostedClientOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        services.AddOptions();
        services.TryAddSingleton<JsonRpcHostedClientOptionsSetup>();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IConfigureOptions<JsonRpcHostedClientOptions>, JsonRpcHostedClientOptionsSetup>(static sp => sp.GetRequiredService<JsonRpcHostedClientOptionsSetup>()));
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<JsonRpcHostedClientOptions>, JsonRpcHostedClientOptionsSetup>(static sp => sp.GetRequiredService<JsonRpcHostedClientOptionsSetup>()));
        if (configure is not null)
        {
            services.Configure(name, configure);
        }

        if (!IsAdded(services, name))
        {
            services.AddSingleton(new HostedJsonRpcClientName(name));
            services.AddKeyedSingleton<HostedJsonRpcClient>(name, static (sp, key) => new HostedJsonRpcClient((string)key!, sp));
            services.AddSingleton<IHostedService>(sp => sp.GetRequiredKeyedService<HostedJsonRpcClient>(name));
            services.AddKeyedSingleton<JsonRpcClient>(name, static (sp, key) => sp.GetRequiredKeyedService<HostedJsonRpcClient>(key).Client);
        }

        return new JsonRpcClientBuilder(name, services);
    }

    /// <summary>
    /// Adds the hosted client named after <typeparamref name="TContract"/> (its name without the interface's leading
    /// <c>I</c>: <c>ICalculator</c> is <c>"Calculator"</c>, configured from <c>JsonRpc:Clients:Calculator</c>) and its
    /// proxy: <typeparamref name="TContract"/> is injectable (also keyed by the name), a singleton whose calls go over the
    /// client's one connection.
    /// </summary>
    /// <inheritdoc cref="AddJsonRpcClient(IServiceCollection, string, Action{JsonRpcHostedClientOptions}?)"/>
    public static IJsonRpcClientBuilder AddJsonRpcClient<TContract>(this IServiceCollection services, Action<JsonRpcHostedClientOptions>? configure)
        where TContract : class
        => services.AddJsonRpcClient(NameOf<TContract>(), configure).AddProxy<TContract>();

    /// <summary>Adds the hosted client named after <typeparamref name="TContract"/> and its proxy, with options from configuration only.</summary>
    /// <inheritdoc cref="AddJsonRpcClient{TContract}(IServiceCollection, Action{JsonRpcHostedClientOptions}?)"/>
    public static IJsonRpcClientBuilder AddJsonRpcClient<TContract>(this IServiceCollection services)
        where TContract : class
        => services.AddJsonRpcClient<TContract>(null);

    /// <summary>
    /// Makes <typeparamref name="TContract"/> (a <c>[JsonRpcContract]</c> interface) injectable, and keyed by the client's
    /// name: a proxy (a singleton) whose calls go over this client's connection.
    /// </summary>
    public static IJsonRpcClientBuilder AddProxy<TContract>(this IJsonRpcClientBuilder builder)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddKeyedSingleton<TContract>(builder.Name, static (sp, key) => sp.GetRequiredKeyedService<HostedJsonRpcClient>(key).Client.Attach<TContract>());
        var name = builder.Name;
        builder.Services.AddSingleton<TContract>(sp => sp.GetRequiredKeyedService<TContract>(name));
        return builder;
    }

    /// <summary>Serves the <c>[JsonRpcContract]</c> interface <typeparamref name="TContract"/> on this client with <typeparamref name="TImplementation"/>, a scope per call (<c>AddJsonRpcTarget</c> with the client's name).</summary>
    public static IJsonRpcClientBuilder AddTarget<TContract, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(this IJsonRpcClientBuilder builder)
        where TContract : class
        where TImplementation : class, TContract
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddJsonRpcTarget<TContract, TImplementation>(builder.Name);
        return builder;
    }

    private static string NameOf<TContract>()
    {
        var name = typeof(TContract).Name;
        return name.Length > 1 && name[0] == 'I' && char.IsUpper(name[1]) ? name[1..] : name;
    }

    private static bool IsAdded(IServiceCollection services, string name)
    {
        foreach (var descriptor in services)
        {
            if (descriptor.ServiceType == typeof(HostedJsonRpcClientName) && descriptor.ImplementationInstance is HostedJsonRpcClientName added && added.Name == name)
            {
                return true;
            }
        }

        return false;
    }
}
