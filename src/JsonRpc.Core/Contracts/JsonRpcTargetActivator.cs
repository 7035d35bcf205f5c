namespace JsonRpc.Contracts;

/// <summary>
/// Makes the implementation of a <see cref="JsonRpcContractAttribute"/> interface that serves one call, and says how
/// that implementation's lifetime ends: what a dependency injection scope per call is built on
/// (<see cref="JsonRpcContractSupport.PerCall{TContract}(JsonRpcTargetActivator{TContract})"/>).
/// </summary>
/// <typeparam name="TContract">The contract interface.</typeparam>
public abstract class JsonRpcTargetActivator<TContract>
    where TContract : class
{
    /// <summary>Makes the implementation for one call.</summary>
    /// <param name="lifetime">Disposed once the call has ended (its task completed, its stream enumerated or abandoned); null when nothing ends with it.</param>
    /// <returns>The implementation that serves the call.</returns>
    public abstract TContract Activate(out IAsyncDisposable? lifetime);
}
