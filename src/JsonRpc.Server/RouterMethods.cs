namespace JsonRpc.Server;

/// <summary>
/// The names of the methods the router itself answers. Clients cannot register methods or host methods under these
/// names; every other name is free.
/// </summary>
public static class RouterMethods
{
    /// <summary><c>register_client {"name": string, "token"?: string}</c>: names the connection. Result <c>true</c>.</summary>
    public const string RegisterClient = JsonRpc.Protocol.RouterWire.RegisterClient;

    /// <summary>
    /// <c>authenticate {"token": string}</c>: authenticates the connection with a static token or a JWT, where the router
    /// is configured for it. Result <c>{"identity": string, "roles": [string]}</c>; a refused token is answered
    /// <see cref="RouterErrorCodes.AccessDenied"/> and the connection closed.
    /// </summary>
    public const string Authenticate = JsonRpc.Protocol.RouterWire.Authenticate;

    /// <summary><c>register_method {"method": string}</c>: this client provides the method. Result <c>true</c>.</summary>
    public const string RegisterMethod = JsonRpc.Protocol.RouterWire.RegisterMethod;

    /// <summary><c>unregister_method {"method": string}</c>: this client stops providing it. Result: whether it did.</summary>
    public const string UnregisterMethod = JsonRpc.Protocol.RouterWire.UnregisterMethod;

    /// <summary><c>list_methods</c>: every routed method with its providers' names, and the host's own methods.</summary>
    public const string ListMethods = JsonRpc.Protocol.RouterWire.ListMethods;

    /// <summary>
    /// <c>list_clients</c>: every registered client, by name, with its remote address and how many methods it provides
    /// and events it subscribes to.
    /// </summary>
    public const string ListClients = JsonRpc.Protocol.RouterWire.ListClients;

    /// <summary><c>subscribe {"event": string}</c>: notifications named after the event reach this client. Result <c>true</c>.</summary>
    public const string Subscribe = JsonRpc.Protocol.RouterWire.Subscribe;

    /// <summary><c>unsubscribe {"event": string}</c>: stops them. Result: whether the client was subscribed.</summary>
    public const string Unsubscribe = JsonRpc.Protocol.RouterWire.Unsubscribe;

    /// <summary><c>keepAlive</c>: resets the idle timer (as any traffic does). Result <c>true</c>.</summary>
    public const string KeepAlive = JsonRpc.Protocol.RouterWire.KeepAlive;

    /// <summary><c>get_server_stats</c>: the router's counters (the same as its metrics).</summary>
    public const string GetServerStats = JsonRpc.Protocol.RouterWire.GetServerStats;

    /// <summary>
    /// <c>rpc.discover</c> (OpenRPC's discovery method): an OpenRPC document of every method reachable through the router:
    /// its own, the host's, and every provider's on every cluster node, each with its providers' descriptions.
    /// </summary>
    public const string Discover = JsonRpc.Protocol.OpenRpc.DiscoverMethod;

    /// <summary>
    /// <c>$/cancelRequest {"id": …}</c>, a notification: cancels the sender's own pending call of that id (as the sender
    /// wrote it). The router tells the provider holding it, under the id that provider saw, or cancels the host method's
    /// token. Sent as a request (with an id) it is answered Invalid Request (-32600). See the README.
    /// </summary>
    public const string CancelRequest = JsonRpc.Protocol.JsonRpcProtocolMethods.CancelRequest;

    /// <summary>
    /// True when <paramref name="name"/> is one of the router's own methods, or any name starting with <c>$/</c>
    /// (reserved for protocol extensions such as <see cref="CancelRequest"/>).
    /// </summary>
    public static bool IsBuiltIn(string name)
        => name is RegisterClient or RegisterMethod or UnregisterMethod or ListMethods or ListClients
            or Subscribe or Unsubscribe or KeepAlive or GetServerStats or Discover
            || JsonRpc.Protocol.JsonRpcProtocolMethods.IsReserved(name);
}
