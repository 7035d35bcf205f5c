namespace JsonRpc.Hosting;

/// <summary>What serves the targets of <c>AddJsonRpcTarget</c>: a hosted router's host methods or a hosted client.</summary>
public interface IJsonRpcTargetHost
{
    /// <summary>Serves <paramref name="target"/>'s methods of the contract <typeparamref name="TContract"/>.</summary>
    /// <param name="target">An implementation of the contract (for a registration, one that serves each call from a new scope).</param>
    void AddTarget<TContract>(TContract target)
        where TContract : class;
}
