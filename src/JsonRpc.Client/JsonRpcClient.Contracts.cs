using System.Text.Json;
using JsonRpc.Contracts;

namespace JsonRpc.Client;

/// <summary>Typed contracts: proxies and served implementations of <see cref="JsonRpcContractAttribute"/> interfaces.</summary>
public sealed partial class JsonRpcClient
{
    /// <summary>
    /// A proxy for the <see cref="JsonRpcContractAttribute"/> interface <typeparamref name="TContract"/>: each of its
    /// methods is a call on this client (params by position; a <see cref="CancellationToken"/> cancels the call, an
    /// <see cref="IProgress{T}"/> gets the peer's reports, an <see cref="IAsyncEnumerable{T}"/> is pulled as it is
    /// enumerated), with the metadata of the contract's <c>JsonSerializerContext</c> (else
    /// <see cref="JsonRpcClientOptions.SerializerOptions"/>). Written by the source generator: no reflection.
    /// </summary>
    /// <remarks>
    /// Each event of the contract is raised (sender: the proxy) for each notification named after it that the peer
    /// sends, params <c>[args]</c> as StreamJsonRpc's targets send them; handlers run in arrival order off the read loop,
    /// and one that throws is logged. While an event has handlers and this client is registered at a router
    /// (<see cref="RegisterAsync"/>, before or after the handler is added), the proxy also subscribes to the event there
    /// (<c>subscribe</c>, in the background when added after registering; restored after a reconnect), since the router
    /// passes a published event only to its subscribers; the last handler removed unsubscribes.
    /// </remarks>
    /// <exception cref="InvalidOperationException">No code was generated for <typeparamref name="TContract"/>, or a type lacks metadata.</exception>
    public TContract Attach<TContract>()
        where TContract : class
        => Attach<TContract>(ClientContracts<TContract>.DefaultOptions?.Invoke() ?? _options.SerializerOptions);

    /// <summary>A proxy for <typeparamref name="TContract"/> with the metadata of <paramref name="options"/>.</summary>
    /// <inheritdoc cref="Attach{TContract}()"/>
    public TContract Attach<TContract>(JsonSerializerOptions options)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(options);
        var create = ClientContracts<TContract>.CreateProxy ?? throw new InvalidOperationException(JsonRpcContractSupport.NotAContract(typeof(TContract)));
        return create(this, options);
    }

    /// <summary>
    /// Serves <paramref name="target"/>'s methods of the <see cref="JsonRpcContractAttribute"/> interface
    /// <typeparamref name="TContract"/> (each as <c>AddMethod</c> would, so they are announced to the router once this
    /// client is registered), with the metadata of the contract's <c>JsonSerializerContext</c> (else
    /// <see cref="JsonRpcClientOptions.SerializerOptions"/>). Params bind by position or by name; an
    /// <see cref="IProgress{T}"/> parameter reports to the caller's progress token, an <see cref="IAsyncEnumerable{T}"/>
    /// result is served for the caller to pull (StreamJsonRpc's protocol). Each event of the contract the target raises
    /// is sent to the peer as a notification named after it, params <c>[args]</c> (StreamJsonRpc's
    /// <c>NotifyClientOfEvents</c>); a router passes it to the event's subscribers, as a published event. Disposing the
    /// client unsubscribes from the target's events.
    /// </summary>
    /// <exception cref="InvalidOperationException">No code was generated for <typeparamref name="TContract"/>, or a type lacks metadata.</exception>
    /// <exception cref="ArgumentException">A method of one of the contract's names is already served.</exception>
    public JsonRpcClient AddTarget<TContract>(TContract target)
        where TContract : class
        => AddTarget(target, ClientContracts<TContract>.DefaultOptions?.Invoke() ?? _options.SerializerOptions);

    /// <summary>Serves <paramref name="target"/>'s methods with the metadata of <paramref name="options"/>.</summary>
    /// <inheritdoc cref="AddTarget{TContract}(TContract)"/>
    public JsonRpcClient AddTarget<TContract>(TContract target, JsonSerializerOptions options)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(options);
        var add = ClientContracts<TContract>.AddTarget ?? throw new InvalidOperationException(JsonRpcContractSupport.NotAContract(typeof(TContract)));
        AddTargetRegistration(add(this, target, options));
        return this;
    }

    // One static slot per contract type, filled by the generated module initializer: found without reflection.
    internal static class ClientContracts<TContract>
        where TContract : class
    {
        public static Func<JsonSerializerOptions>? DefaultOptions;
        public static Func<JsonRpcClient, JsonSerializerOptions, TContract>? CreateProxy;
        public static Func<JsonRpcClient, TContract, JsonSerializerOptions, IDisposable>? AddTarget;
    }
}
