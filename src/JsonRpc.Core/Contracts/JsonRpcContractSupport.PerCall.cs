namespace JsonRpc.Contracts;

public static partial class JsonRpcContractSupport
{
    /// <summary>Registers the generated per-call forwarder of <typeparamref name="TContract"/> (called from a module initializer).</summary>
    /// <param name="create">Makes an implementation of the contract whose every call is served by a fresh one from the activator.</param>
    public static void RegisterPerCall<TContract>(Func<JsonRpcTargetActivator<TContract>, TContract> create)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(create);
        PerCallTargets<TContract>.Create = create;
    }

    /// <summary>
    /// An implementation of <typeparamref name="TContract"/> whose every call asks <paramref name="activator"/> for the
    /// implementation that serves it, and ends that implementation's lifetime once the call has ended: serve it with
    /// <c>AddTarget</c> to serve each call from, for example, a new dependency injection scope. Written by the source
    /// generator: no reflection.
    /// </summary>
    /// <exception cref="InvalidOperationException">No per-call code was generated for <typeparamref name="TContract"/> (not a contract, or built with an older generator).</exception>
    public static TContract PerCall<TContract>(JsonRpcTargetActivator<TContract> activator)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(activator);
        var create = PerCallTargets<TContract>.Create ?? throw new InvalidOperationException(NotAContract(typeof(TContract)));
        return create(activator);
    }

    /// <summary>Ends a per-call implementation's lifetime, if it has one (the generated code calls it once the call has ended).</summary>
    public static ValueTask EndAsync(IAsyncDisposable? lifetime) => lifetime?.DisposeAsync() ?? default;

    // One static slot per contract type, filled by the generated module initializer.
    private static class PerCallTargets<TContract>
        where TContract : class
    {
        public static Func<JsonRpcTargetActivator<TContract>, TContract>? Create;
    }
}
