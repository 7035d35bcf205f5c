using System.ComponentModel;
using System.Text.Json;

namespace JsonRpc.Client;

/// <summary>What the code generated for <c>[JsonRpcContract]</c> interfaces calls to register itself. Not for hand-written code.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class JsonRpcClientContractSupport
{
    /// <summary>Registers the generated proxy and target of <typeparamref name="TContract"/> (called from a module initializer).</summary>
    /// <param name="defaultOptions">The options of the contract's <c>JsonSerializerContext</c>, or null when it names none.</param>
    /// <param name="createProxy">Makes a proxy that calls through a client.</param>
    /// <param name="addTarget">Adds an implementation's methods to a client.</param>
    public static void Register<TContract>(
        Func<JsonSerializerOptions>? defaultOptions,
        Func<JsonRpcClient, JsonSerializerOptions, TContract> createProxy,
        Action<JsonRpcClient, TContract, JsonSerializerOptions> addTarget)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(createProxy);
        ArgumentNullException.ThrowIfNull(addTarget);
        JsonRpcClient.ClientContracts<TContract>.DefaultOptions = defaultOptions;
        JsonRpcClient.ClientContracts<TContract>.CreateProxy = createProxy;
        JsonRpcClient.ClientContracts<TContract>.AddTarget = addTarget;
    }
}
