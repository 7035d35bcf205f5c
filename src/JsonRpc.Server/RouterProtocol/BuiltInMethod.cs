namespace JsonRpc.Server.RouterProtocol;

/// <summary>The router's own methods (<see cref="RouterMethods"/>), matched from UTF-8 without a string.</summary>
internal enum BuiltInMethod
{
    None,
    RegisterClient,
    RegisterMethod,
    UnregisterMethod,
    ListMethods,
    ListClients,
    Subscribe,
    Unsubscribe,
    KeepAlive,
    GetServerStats,
    CancelRequest,
    Authenticate,
    Discover,
}

/// <summary>Matches method names against <see cref="RouterMethods"/>.</summary>
internal static class BuiltInMethods
{
    public static BuiltInMethod Match(ReadOnlySpan<byte> name) => name.Length switch
    {
        9 when name.SequenceEqual("keepAlive"u8) => BuiltInMethod.KeepAlive,
        9 when name.SequenceEqual("subscribe"u8) => BuiltInMethod.Subscribe,
        11 when name.SequenceEqual("unsubscribe"u8) => BuiltInMethod.Unsubscribe,
        12 when name.SequenceEqual("list_methods"u8) => BuiltInMethod.ListMethods,
        12 when name.SequenceEqual("list_clients"u8) => BuiltInMethod.ListClients,
        12 when name.SequenceEqual("authenticate"u8) => BuiltInMethod.Authenticate,
        12 when name.SequenceEqual("rpc.discover"u8) => BuiltInMethod.Discover,
        15 when name.SequenceEqual("register_client"u8) => BuiltInMethod.RegisterClient,
        15 when name.SequenceEqual("register_method"u8) => BuiltInMethod.RegisterMethod,
        15 when name.SequenceEqual("$/cancelRequest"u8) => BuiltInMethod.CancelRequest,
        16 when name.SequenceEqual("get_server_stats"u8) => BuiltInMethod.GetServerStats,
        17 when name.SequenceEqual("unregister_method"u8) => BuiltInMethod.UnregisterMethod,
        _ => BuiltInMethod.None,
    };

    /// <summary>Whether an unregistered connection may call it when registration is required.</summary>
    public static bool AllowedBeforeRegistration(BuiltInMethod method)
        => method is BuiltInMethod.RegisterClient or BuiltInMethod.KeepAlive or BuiltInMethod.GetServerStats or BuiltInMethod.Authenticate;
}
