namespace JsonRpc.Server.Security;

/// <summary>The kinds of permission, as named in errors, logs and counters.</summary>
internal enum PermissionKind
{
    Provide,
    Call,
    Publish,
    Subscribe,
    ClientName,
}

internal static class PermissionKinds
{
    public static string Name(PermissionKind kind) => kind switch
    {
        PermissionKind.Provide => "provide",
        PermissionKind.Call => "call",
        PermissionKind.Publish => "publish",
        PermissionKind.Subscribe => "subscribe",
        _ => "client_name",
    };
}
