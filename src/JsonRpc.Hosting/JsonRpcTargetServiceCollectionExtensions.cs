using System.Diagnostics.CodeAnalysis;
using JsonRpc.Hosting;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Serves JSON-RPC contracts from dependency injection.</summary>
public static class JsonRpcTargetServiceCollectionExtensions
{
    /// <summary>
    /// Serves the <c>[JsonRpcContract]</c> interface <typeparamref name="TContract"/> with
    /// <typeparamref name="TImplementation"/>, resolved from a new scope for each call (so its scoped dependencies are
    /// made for the call and disposed when it ends, a stream's when it is enumerated or abandoned). With no
    /// <paramref name="clientName"/> the hosted router (<c>AddJsonRpcRouter</c>) serves it as host methods; with one,
    /// the hosted client of that name (<c>AddJsonRpcClient</c>) serves it and announces its methods to the router it
    /// connects to. <typeparamref name="TImplementation"/> is added as a scoped service unless it is already registered.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="clientName">The hosted client that serves the contract, or null for the hosted router.</param>
    /// <exception cref="ArgumentException"><paramref name="clientName"/> is empty.</exception>
    public static IServiceCollection AddJsonRpcTarget<TContract, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        this IServiceCollection services, string? clientName = null)
        where TContract : class
        where TImplementation : class, TContract
    {
        ArgumentNullException.ThrowIfNull(services);
        if (clientName is not null)
        {
            ArgumentException.ThrowIfNullOrWhiteSpace(clientName);
        }

        services.TryAddScoped<TImplementation>();
        services.AddSingleton<JsonRpcTargetRegistration>(new JsonRpcTargetRegistration<TContract, TImplementation>(clientName));
        return services;
    }
}
