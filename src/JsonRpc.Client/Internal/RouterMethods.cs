namespace JsonRpc.Client.Internal;

/// <summary>The router's built-in methods the client calls (see the JsonRpc.Server README).</summary>
internal static class RouterMethods
{
    public const string RegisterClient = "register_client";
    public const string RegisterMethod = "register_method";
    public const string UnregisterMethod = "unregister_method";
    public const string Subscribe = "subscribe";
    public const string Unsubscribe = "unsubscribe";
    public const string KeepAlive = "keepAlive";
    public const string Authenticate = "authenticate";
}
