namespace JsonRpc.Server;

/// <summary>
/// Who may connect to the router and what each may do: identities (static tokens, JWT bearer tokens, TLS client
/// certificates), permissions per identity and role (which methods it may provide and call, which events it may publish
/// and subscribe to, which client names it may take), and quotas. Bound from the <c>JsonRpcRouter:Security</c>
/// configuration section (or a file named by <c>--security_file</c>) and reloaded while the router runs; see
/// <see cref="JsonRpcSecurityConfiguration"/>. With nothing configured, the router authenticates nobody and allows
/// everything, as it always did.
/// </summary>
public sealed class JsonRpcSecurityOptions
{
    /// <summary>Static tokens, each naming the identity it authenticates.</summary>
    public IList<JsonRpcTokenIdentity> Tokens { get; } = [];

    /// <summary>JWT bearer tokens: the keys their signatures are checked against, and the claims read from them.</summary>
    public JsonRpcJwtOptions? Jwt { get; set; }

    /// <summary>TLS client certificates mapped to identities (the endpoint must speak TLS).</summary>
    public IList<JsonRpcCertificateIdentity> Certificates { get; } = [];

    /// <summary>
    /// A PEM file of CA certificates that a client certificate mapped by <see cref="JsonRpcCertificateIdentity.Subject"/>
    /// must chain to. Certificates mapped by thumbprint are pinned and need no CA.
    /// </summary>
    public string? ClientCertificateCaFile { get; set; }

    /// <summary>Rules and quotas per identity name.</summary>
    public IDictionary<string, JsonRpcIdentityRules> Identities { get; } = new Dictionary<string, JsonRpcIdentityRules>(StringComparer.Ordinal);

    /// <summary>Rules and quotas per role; an identity gets the rules of every role it has.</summary>
    public IDictionary<string, JsonRpcIdentityRules> Roles { get; } = new Dictionary<string, JsonRpcIdentityRules>(StringComparer.Ordinal);

    /// <summary>Rules merged into every authenticated identity's (a deny-by-default base, say).</summary>
    public JsonRpcIdentityRules? Default { get; set; }

    /// <summary>
    /// What a connection that has not authenticated may do. Null (the default): nothing but authenticate
    /// (<c>authenticate</c>, <c>register_client</c> with a token, <c>keepAlive</c>).
    /// </summary>
    public JsonRpcIdentityRules? Anonymous { get; set; }

    /// <summary>
    /// The most refusals written to the log per second; refusals beyond it are counted and summed up in the next line
    /// written, so that a flood of refused calls cannot become a flood of log lines. Default 10.
    /// </summary>
    public int AuditLogsPerSecond { get; set; } = 10;

    /// <summary>Whether any way to authenticate is configured.</summary>
    public bool HasAuthentication => Tokens.Count > 0 || Jwt is not null || Certificates.Count > 0;
}
