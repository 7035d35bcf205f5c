namespace JsonRpc.Server.Security;

/// <summary>
/// Who a connection is under one security policy: its identity, roles, merged permissions and the identity's shared
/// state (quotas, counters). Immutable; a reloaded policy makes new principals.
/// </summary>
internal sealed class RouterPrincipal(
    SecurityPolicy policy, string identity, string[] roles, bool authenticated, IdentityState state,
    CompiledPermission provide, CompiledPermission call, CompiledPermission publish, CompiledPermission subscribe,
    CompiledPermission clientNames, bool monitor)
{
    public SecurityPolicy Policy { get; } = policy;

    public string Identity { get; } = identity;

    public string[] Roles { get; } = roles;

    /// <summary>False for the anonymous principal.</summary>
    public bool IsAuthenticated { get; } = authenticated;

    public IdentityState State { get; } = state;

    public bool Monitor { get; } = monitor;

    public CompiledPermission Provide { get; } = provide;

    public CompiledPermission Call { get; } = call;

    public CompiledPermission Publish { get; } = publish;

    public CompiledPermission Subscribe { get; } = subscribe;

    public CompiledPermission ClientNames { get; } = clientNames;

    public CompiledPermission Get(PermissionKind kind) => kind switch
    {
        PermissionKind.Provide => Provide,
        PermissionKind.Call => Call,
        PermissionKind.Publish => Publish,
        PermissionKind.Subscribe => Subscribe,
        _ => ClientNames,
    };
}
