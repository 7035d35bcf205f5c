namespace JsonRpc.Server.Security;

/// <summary>Why the router refused something, as counted in <c>get_server_stats</c> and the metrics.</summary>
internal enum RefusalReason
{
    Authentication,
    NotAuthenticated,
    Call,
    Provide,
    Publish,
    Subscribe,
    ClientName,
    Exclusive,
    Rate,
    InFlight,
    Connections,
}

internal static class RefusalReasons
{
    public static readonly RefusalReason[] All = Enum.GetValues<RefusalReason>();

    public static string Name(RefusalReason reason) => reason switch
    {
        RefusalReason.Authentication => "authentication",
        RefusalReason.NotAuthenticated => "not_authenticated",
        RefusalReason.Call => "call",
        RefusalReason.Provide => "provide",
        RefusalReason.Publish => "publish",
        RefusalReason.Subscribe => "subscribe",
        RefusalReason.ClientName => "client_name",
        RefusalReason.Exclusive => "exclusive",
        RefusalReason.Rate => "rate",
        RefusalReason.InFlight => "in_flight",
        _ => "connections",
    };

    public static RefusalReason For(PermissionKind kind) => kind switch
    {
        PermissionKind.Provide => RefusalReason.Provide,
        PermissionKind.Call => RefusalReason.Call,
        PermissionKind.Publish => RefusalReason.Publish,
        PermissionKind.Subscribe => RefusalReason.Subscribe,
        _ => RefusalReason.ClientName,
    };
}
