namespace JsonRpc.Server;

/// <summary>
/// The permissions and quota of one identity, role, the default, or anonymous connections. Names are matched as NATS
/// subjects: tokens separated by <c>.</c>, where <c>*</c> matches one token and a final <c>&gt;</c> one or more
/// (<c>billing.*</c> matches <c>billing.charge</c>; <c>billing.&gt;</c> also <c>billing.eu.charge</c>; <c>&gt;</c>
/// matches everything). For each kind, a deny always wins; where no rule that applies to an identity gives an allow
/// list for a kind, that kind is allowed (as a NATS user without permissions); an empty allow list allows nothing.
/// </summary>
public sealed class JsonRpcIdentityRules
{
    /// <summary>The roles of an identity (ignored on a role itself).</summary>
    public IList<string> Roles { get; } = [];

    /// <summary>Methods it may register (<c>register_method</c>).</summary>
    public JsonRpcPermission Provide { get; set; } = new();

    /// <summary>Methods it may call or send notifications to (routed and host methods).</summary>
    public JsonRpcPermission Call { get; set; } = new();

    /// <summary>Events it may publish (a notification that reaches subscribers).</summary>
    public JsonRpcPermission Publish { get; set; } = new();

    /// <summary>Events it may subscribe to.</summary>
    public JsonRpcPermission Subscribe { get; set; } = new();

    /// <summary>Client names it may register as (<c>register_client</c>).</summary>
    public JsonRpcPermission ClientNames { get; set; } = new();

    /// <summary>
    /// Whether it sees every client, method and identity in <c>list_methods</c>, <c>list_clients</c>,
    /// <c>get_server_stats</c> and the dashboard (an operator). Otherwise it sees the methods it may call, the clients
    /// that provide them, and its own identity's counters.
    /// </summary>
    public bool Monitor { get; set; }

    /// <summary>Limits on the identity as a whole (all its connections together); null for none.</summary>
    public JsonRpcQuota? Quota { get; set; }
}
