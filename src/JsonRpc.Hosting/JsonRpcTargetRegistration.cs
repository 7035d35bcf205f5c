using JsonRpc.Contracts;
using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Hosting;

/// <summary>
/// One <c>services.AddJsonRpcTarget&lt;TContract, TImplementation&gt;()</c>: the contract, the implementation served
/// from a new dependency injection scope per call, and who serves it (the hosted router, or a named hosted client).
/// Registered as a singleton; the hosted router and clients read them all when they start.
/// </summary>
public abstract class JsonRpcTargetRegistration
{
    private protected JsonRpcTargetRegistration(string? clientName) => ClientName = clientName;

    /// <summary>The hosted client that serves the contract (<c>AddJsonRpcClient</c>'s name), or null for the hosted router's host methods.</summary>
    public string? ClientName { get; }

    /// <summary>The contract interface.</summary>
    public abstract Type Contract { get; }

    /// <summary>The implementation, resolved from a new scope for each call.</summary>
    public abstract Type Implementation { get; }

    /// <summary>Serves the contract on <paramref name="host"/>, each call from a new scope of <paramref name="services"/>.</summary>
    /// <exception cref="InvalidOperationException">No code was generated for the contract.</exception>
    public abstract void AddTo(IJsonRpcTargetHost host, IServiceProvider services);

    /// <inheritdoc />
    public override string ToString() => $"AddJsonRpcTarget<{Contract.Name}, {Implementation.Name}>({(ClientName is null ? "the router" : $"client '{ClientName}'")})";
}

/// <summary>A registration of <typeparamref name="TImplementation"/> for <typeparamref name="TContract"/>.</summary>
internal sealed class JsonRpcTargetRegistration<TContract, TImplementation>(string? clientName) : JsonRpcTargetRegistration(clientName)
    where TContract : class
    where TImplementation : class, TContract
{
    public override Type Contract => typeof(TContract);

    public override Type Implementation => typeof(TImplementation);

    public override void AddTo(IJsonRpcTargetHost host, IServiceProvider services)
    {
        ArgumentNullException.ThrowIfNull(host);
        ArgumentNullException.ThrowIfNull(services);
        var activator = new ScopePerCall(services.GetRequiredService<IServiceScopeFactory>());
        host.AddTarget(JsonRpcContractSupport.PerCall(activator));
    }

    private sealed class ScopePerCall(IServiceScopeFactory scopes) : JsonRpcTargetActivator<TContract>
    {
        public override TContract Activate(out IAsyncDisposable? lifetime)
        {
            var scope = scopes.CreateAsyncScope();
            try
            {
                var target = scope.ServiceProvider.GetRequiredService<TImplementation>();
                lifetime = scope;
                return target;
            }
            catch
            {
                scope.Dispose();
                throw;
            }
        }
    }
}
