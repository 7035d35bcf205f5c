using System.ComponentModel;
using System.Text.Json;
using JsonRpc.Contracts;
using JsonRpc.Protocol;

namespace JsonRpc.Client;

/// <summary>What the code generated for <c>[JsonRpcContract]</c> interfaces calls to register itself. Not for hand-written code.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class JsonRpcClientContractSupport
{
    /// <summary>Registers the generated proxy and target of <typeparamref name="TContract"/> (called from a module initializer).</summary>
    /// <param name="defaultOptions">The options of the contract's <c>JsonSerializerContext</c>, or null when it names none.</param>
    /// <param name="createProxy">Makes a proxy that calls through a client.</param>
    /// <param name="addTarget">Adds an implementation's methods to a client and subscribes to its events; returns what unsubscribes.</param>
    public static void Register<TContract>(
        Func<JsonSerializerOptions>? defaultOptions,
        Func<JsonRpcClient, JsonSerializerOptions, TContract> createProxy,
        Func<JsonRpcClient, TContract, JsonSerializerOptions, IDisposable> addTarget)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(createProxy);
        ArgumentNullException.ThrowIfNull(addTarget);
        JsonRpcClient.ClientContracts<TContract>.DefaultOptions = defaultOptions;
        JsonRpcClient.ClientContracts<TContract>.CreateProxy = createProxy;
        JsonRpcClient.ClientContracts<TContract>.AddTarget = addTarget;
    }

    /// <summary>The sender of the events of targets added to <paramref name="client"/>: notifications to its peer.</summary>
    public static JsonRpcEventSender EventSender(JsonRpcClient client)
    {
        ArgumentNullException.ThrowIfNull(client);
        return client.EventSender;
    }

    /// <summary>
    /// Runs <paramref name="handler"/> with the params of each notification <paramref name="eventName"/> the peer sends
    /// (a proxy's event while it has handlers); dispose the result to stop.
    /// </summary>
    public static IDisposable Listen(JsonRpcClient client, string eventName, Action<RawJson> handler)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentException.ThrowIfNullOrEmpty(eventName);
        ArgumentNullException.ThrowIfNull(handler);
        return client.Listen(eventName, handler);
    }
}
