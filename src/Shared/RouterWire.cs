namespace JsonRpc.Protocol;

/// <summary>
/// The router's wire contract that the router and the client both speak, written once: its built-in methods and the
/// members of their params. Internal, compiled into JsonRpc.Server (whose public <c>RouterMethods</c> gives the names
/// to users) and JsonRpc.Client, so that neither keeps a copy of its own that could drift.
/// </summary>
internal static class RouterWire
{
    public const string RegisterClient = "register_client";
    public const string Authenticate = "authenticate";
    public const string RegisterMethod = "register_method";
    public const string UnregisterMethod = "unregister_method";
    public const string ListMethods = "list_methods";
    public const string ListClients = "list_clients";
    public const string Subscribe = "subscribe";
    public const string Unsubscribe = "unsubscribe";
    public const string KeepAlive = "keepAlive";
    public const string GetServerStats = "get_server_stats";

    /// <summary><c>register_client</c>'s client name.</summary>
    public const string NameMember = "name";

    /// <summary><c>register_client</c>'s and <c>authenticate</c>'s token.</summary>
    public const string TokenMember = "token";

    /// <summary><c>register_method</c>'s and <c>unregister_method</c>'s method name.</summary>
    public const string MethodMember = "method";

    /// <summary><c>register_method</c>'s OpenRPC description of the method.</summary>
    public const string DescriptionMember = "description";

    /// <summary><c>subscribe</c>'s and <c>unsubscribe</c>'s event name.</summary>
    public const string EventMember = "event";

    /// <summary><c>register_method</c>'s flag for a method only one client may provide.</summary>
    public const string ExclusiveMember = "exclusive";

    // The same members as UTF-8, for the router's readers (a u8 literal cannot be made from a const string).
    public static ReadOnlySpan<byte> NameMemberUtf8 => "name"u8;

    public static ReadOnlySpan<byte> TokenMemberUtf8 => "token"u8;

    public static ReadOnlySpan<byte> MethodMemberUtf8 => "method"u8;

    public static ReadOnlySpan<byte> DescriptionMemberUtf8 => "description"u8;

    public static ReadOnlySpan<byte> EventMemberUtf8 => "event"u8;

    public static ReadOnlySpan<byte> ExclusiveMemberUtf8 => "exclusive"u8;
}
