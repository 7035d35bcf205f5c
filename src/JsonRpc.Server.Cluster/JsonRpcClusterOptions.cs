using NATS.Client.Core;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// How a router joins a cluster through NATS. Bound from the router's own configuration section
/// (<c>JsonRpcRouter</c>): <c>NatsUrl</c> or <c>nats_url</c>, <c>NodeName</c> or <c>node_name</c>, and so on.
/// </summary>
public sealed class JsonRpcClusterOptions
{
    /// <summary>
    /// The NATS server or servers, comma-separated (<c>nats://a:4222,nats://b:4222</c>), <c>nats_url</c>. Null or
    /// empty: the router runs on its own and no cluster code is on its path.
    /// </summary>
    public string? NatsUrl { get; set; }

    /// <summary>
    /// This node's name, unique in the cluster (<c>node_name</c>): letters, digits and <c>-_:@</c>. Default: the host
    /// name and the router's port, such as <c>web1:8080</c>.
    /// </summary>
    public string? NodeName { get; set; }

    /// <summary>
    /// The first token of every subject the cluster uses (<c>cluster_subject_prefix</c>, default <c>jsonrpc</c>):
    /// routers with different prefixes on one NATS form different clusters.
    /// </summary>
    public string SubjectPrefix { get; set; } = "jsonrpc";

    /// <summary>How often a node tells the others it is alive (<c>cluster_heartbeat_ms</c>, default 500 ms).</summary>
    public TimeSpan HeartbeatInterval { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// How long a node may go unheard before the others drop it, its registrations and the calls waiting on it
    /// (<c>cluster_node_timeout_ms</c>, default 2 s; at least twice <see cref="HeartbeatInterval"/>).
    /// </summary>
    public TimeSpan NodeTimeout { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>How long starting waits for NATS before the router goes on alone and keeps trying (default 5 s).</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>NATS user name (<c>nats_user</c>), with <see cref="NatsPassword"/>.</summary>
    public string? NatsUser { get; set; }

    /// <summary>NATS password (<c>nats_password</c>).</summary>
    public string? NatsPassword { get; set; }

    /// <summary>NATS token (<c>nats_token</c>).</summary>
    public string? NatsToken { get; set; }

    /// <summary>A NATS credentials file (JWT and NKey seed, <c>nats_creds_file</c>).</summary>
    public string? NatsCredsFile { get; set; }

    /// <summary>A NATS NKey seed file (<c>nats_nkey_file</c>).</summary>
    public string? NatsNKeyFile { get; set; }

    /// <summary>Requires TLS to NATS (<c>nats_tls</c>); a <c>tls://</c> URL or any TLS file requires it too.</summary>
    public bool NatsTls { get; set; }

    /// <summary>The CA certificate (PEM) that NATS's certificate must chain to (<c>nats_tls_ca_file</c>).</summary>
    public string? NatsTlsCaFile { get; set; }

    /// <summary>This node's client certificate (PEM) for mutual TLS (<c>nats_tls_cert_file</c>).</summary>
    public string? NatsTlsCertFile { get; set; }

    /// <summary>The key of <see cref="NatsTlsCertFile"/> (PEM, <c>nats_tls_key_file</c>).</summary>
    public string? NatsTlsKeyFile { get; set; }

    /// <summary>Changes the NATS client's options last, for anything not covered here.</summary>
    public Func<NatsOpts, NatsOpts>? ConfigureNats { get; set; }

    /// <summary>Whether a cluster is configured at all.</summary>
    public bool IsEnabled => !string.IsNullOrWhiteSpace(NatsUrl);
}
