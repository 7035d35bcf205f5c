namespace JsonRpc.Server;

/// <summary>
/// The error codes the router answers with, in the range JSON-RPC 2.0 leaves to servers (-32000..-32099). Besides
/// these it uses the specification's own codes: -32700 (parse error), -32600 (invalid request), -32601 (method not
/// found), -32602 (invalid params) and -32603 (internal error).
/// </summary>
public static class RouterErrorCodes
{
    /// <summary>The provider serving the call disconnected before it answered.</summary>
    public const int ProviderDisconnected = -32000;

    /// <summary>The provider did not answer within the call timeout.</summary>
    public const int CallTimeout = -32001;

    /// <summary>The caller already has the maximum number of calls waiting for answers.</summary>
    public const int TooManyPendingCalls = -32002;

    /// <summary>The connection must call <c>register_client</c> first.</summary>
    public const int NotRegistered = -32003;

    /// <summary>Another connected client already holds the name.</summary>
    public const int NameTaken = -32004;

    /// <summary>The access token is missing or wrong.</summary>
    public const int AccessDenied = -32005;

    /// <summary>
    /// A message was larger than the maximum message size (the connection is closed), or the replies to one batch
    /// would pass the maximum outbound buffer size (the batch gets this one error instead; the connection stays).
    /// </summary>
    public const int MessageTooLarge = -32006;

    /// <summary>The router already serves the maximum number of connections; this one is closed.</summary>
    public const int TooManyConnections = -32007;

    /// <summary>The router is shutting down: the call was not answered and new calls are refused.</summary>
    public const int ShuttingDown = -32008;

    /// <summary>This connection already registered under a name.</summary>
    public const int AlreadyRegistered = -32009;

    /// <summary>The name belongs to one of the router's own methods or to a host method.</summary>
    public const int MethodReserved = -32010;

    /// <summary>The connection did not register within the registration timeout; it is closed.</summary>
    public const int RegistrationTimeout = -32011;

    /// <summary>
    /// The connection sent nothing within the keep-alive timeout, or one message took longer than that to arrive (a
    /// client trickling bytes); it is closed.
    /// </summary>
    public const int IdleTimeout = -32012;

    /// <summary>
    /// The connection already provides or subscribes to the most names one connection may
    /// (<see cref="JsonRpcRouterOptions.MaxRoutesPerConnection"/>); the registration or subscription is refused.
    /// </summary>
    public const int TooManyRoutes = -32013;

    /// <summary>
    /// The identity may not do this: call the method, provide it, publish or subscribe to the event, or register under
    /// the name. <c>data</c> names the permission, the method, event or name, the identity and the rule.
    /// </summary>
    public const int PermissionDenied = -32014;

    /// <summary>
    /// The identity is over a quota (calls per second, calls in flight, connections); <c>data.retry_after_ms</c> says
    /// when to try again.
    /// </summary>
    public const int QuotaExceeded = -32015;

    /// <summary>The router requires authentication and this connection has not authenticated.</summary>
    public const int NotAuthenticated = -32016;

    /// <summary>Another identity provides the method exclusively, or provides it while this registration asks to be exclusive.</summary>
    public const int ProviderConflict = -32017;

    /// <summary>
    /// Clustered routers only: the node cannot reach the other nodes (NATS is unreachable), so a call to a method that
    /// only other nodes provide cannot be sent.
    /// </summary>
    public const int ClusterUnavailable = -32020;

    /// <summary>
    /// The router is near its memory budget (<see cref="JsonRpcRouterOptions.MaxMemory"/>): the call or batch was not
    /// taken; retry later.
    /// </summary>
    public const int Overloaded = -32018;
}
