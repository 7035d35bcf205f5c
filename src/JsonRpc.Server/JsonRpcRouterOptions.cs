using System.Security.Cryptography.X509Certificates;

namespace JsonRpc.Server;

/// <summary>
/// The router's settings, bound from the <c>JsonRpcRouter</c> configuration section (appsettings.json, environment
/// variables such as <c>JsonRpcRouter__Port</c>, the command line). Every setting also has the snake_case name of
/// the original router (<c>port</c>, <c>keepalive_timeout_ms</c>, …); see <see cref="JsonRpcRouterConfiguration"/>.
/// </summary>
public sealed class JsonRpcRouterOptions
{
    /// <summary>The configuration section the options are bound from.</summary>
    public const string SectionName = "JsonRpcRouter";

    /// <summary>
    /// The address the standalone endpoint listens on (<c>host</c>): an IP address, <c>localhost</c>, or <c>*</c> for
    /// every interface. Default <c>127.0.0.1</c>. Only used by <c>ListenJsonRpcRouter</c>.
    /// </summary>
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>The TCP port of the standalone endpoint (<c>port</c>); 0 picks a free one. Default 8080.</summary>
    public int Port { get; set; } = 8080;

    /// <summary>
    /// The HTTP port of the standalone endpoint (<c>http_port</c>), off (null) unless given; 0 picks a free one. It
    /// serves <c>/rpc</c> (WebSocket and POST), <c>/healthz</c> and the dashboard at <c>/</c>, over TLS (HTTPS, WSS)
    /// when a certificate is configured. Only used by <c>ListenJsonRpcRouter</c>; an app of its own maps the same with
    /// <c>MapJsonRpcRouter</c> and <c>MapJsonRpcDashboard</c>.
    /// </summary>
    public int? HttpPort { get; set; }

    /// <summary>
    /// A connection that sends nothing for this long is closed (<c>keepalive_timeout_ms</c>). Any message, and the
    /// <c>keepAlive</c> method, resets the timer. <see cref="TimeSpan.Zero"/> disables it. Default 60 s.
    /// </summary>
    public TimeSpan KeepAliveTimeout { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// With <see cref="RequireRegistration"/>, a connection that has not called <c>register_client</c> within this
    /// time is closed (<c>registration_timeout_ms</c>). Default 10 s.
    /// </summary>
    public TimeSpan RegistrationTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// When true (<c>require_registration</c>), a connection must register before it may call anything but
    /// <c>register_client</c>, <c>keepAlive</c> and <c>get_server_stats</c>, and is closed if it does not register
    /// within <see cref="RegistrationTimeout"/>. Default false: any plain JSON-RPC client may call.
    /// </summary>
    public bool RequireRegistration { get; set; }

    /// <summary>
    /// When set (<c>access_token</c>), <c>register_client</c> must present it as <c>"token"</c>. Compared in constant
    /// time. A wrong token is answered with an error and the connection is closed. Default none.
    /// </summary>
    public string? AccessToken { get; set; }

    /// <summary>
    /// A routed call whose provider has not answered within this time fails with
    /// <see cref="RouterErrorCodes.CallTimeout"/> (<c>call_timeout_ms</c>). <see cref="TimeSpan.Zero"/> disables it.
    /// Default 30 s.
    /// </summary>
    public TimeSpan CallTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The largest message accepted, in bytes (<c>max_message_size</c>). A larger one is answered with
    /// <see cref="RouterErrorCodes.MessageTooLarge"/> and its connection closed, without buffering it whole.
    /// Default 4 MiB (<see cref="JsonRpc.Framing.JsonRpcFramer.DefaultMaxMessageSize"/>).
    /// </summary>
    public int MaxMessageSize { get; set; } = JsonRpc.Framing.JsonRpcFramer.DefaultMaxMessageSize;

    /// <summary>The most connections served at once (<c>max_connections</c>); more are refused. Default 10,000.</summary>
    public int MaxConnections { get; set; } = 10_000;

    /// <summary>
    /// The most calls one connection may have waiting for answers (<c>max_pending_calls</c>); a call beyond it is
    /// answered with <see cref="RouterErrorCodes.TooManyPendingCalls"/>. Default 1,024.
    /// </summary>
    public int MaxPendingCallsPerConnection { get; set; } = 1024;

    /// <summary>
    /// The most method names one connection may provide and event names it may subscribe to, together
    /// (<c>max_routes</c>); a <c>register_method</c> or <c>subscribe</c> beyond it is answered with
    /// <see cref="RouterErrorCodes.TooManyRoutes"/>, so that no client can grow the routing table without bound.
    /// Default 4,096.
    /// </summary>
    public int MaxRoutesPerConnection { get; set; } = 4096;

    /// <summary>The deepest JSON nesting accepted (<c>max_depth</c>); deeper input is a parse error. Default 64.</summary>
    public int MaxDepth { get; set; } = 64;

    /// <summary>
    /// How many values of an async enumerable a host method returns go with its answer
    /// (<see cref="JsonRpc.Dispatch.JsonRpcDispatcherOptions.EnumeratorPrefetch"/>). Default 0: all are pulled.
    /// </summary>
    public int HostEnumeratorPrefetch { get; set; }

    /// <summary>
    /// The most bytes queued for a connection that is not reading them (<c>max_outbound_buffer_size</c>), beyond what
    /// the transport itself buffers, counted as the memory the queued messages hold (a small answer holds a pooled
    /// buffer of at least 256 bytes). A connection that falls this far behind is closed, so that a client that never
    /// reads costs bounded memory and never holds up the others. Default 16 MiB.
    /// </summary>
    public int MaxOutboundBufferSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// The router's memory budget in bytes (<c>max_memory</c>): the buffers it may hold for all clients together
    /// (outbound queues and batch replies). Past 90% of it, new calls and batches are refused with
    /// <see cref="RouterErrorCodes.Overloaded"/> until what is held drains. Default (null): a quarter of the memory
    /// the GC may use (the machine's, or its container's limit), at least 64 MiB.
    /// </summary>
    public long? MaxMemory { get; set; }

    /// <summary>
    /// The longest a new connection waits before it is read when earlier connections from its address were closed for
    /// misbehaviour: an oversized message, framing that cannot be read, not reading what it is sent, a wrong access
    /// token (<c>max_penalty_delay_ms</c>). The wait starts at 50 ms and doubles with each such close; an address is
    /// forgotten 30 s after its last one. Clients already connected from that address are not affected. A client
    /// dropped for misbehaviour that connects again at once is thus slowed to about one attempt per this delay instead
    /// of taking the router's time in a loop. Zero turns it off. Default 1 s.
    /// </summary>
    public TimeSpan MaxPenaltyDelay { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Whether the router reads one batch ahead of the consumer of a StreamJsonRpc async enumerable whose generator
    /// prefetches (it sent values with its token: <c>WithPrefetchAsync</c>), so that the consumer's next pull is
    /// answered from the router instead of crossing it (<c>stream_read_ahead</c>). Such a generator already runs ahead
    /// of its consumer; one without prefetch is never read ahead. The batch kept counts against the consumer's
    /// <see cref="MaxOutboundBufferSize"/>. Default true.
    /// </summary>
    public bool StreamReadAhead { get; set; } = true;

    /// <summary>
    /// On shutdown, how long calls already routed may still be answered before the rest fail with
    /// <see cref="RouterErrorCodes.ShuttingDown"/> (<c>shutdown_timeout_ms</c>). Default 5 s.
    /// </summary>
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// A certificate file (<c>certificate_path</c>): PKCS#12 (.pfx/.p12) or PEM. When set, the standalone endpoint
    /// speaks TLS through Kestrel's own HTTPS connection middleware.
    /// </summary>
    public string? CertificatePath { get; set; }

    /// <summary>The private key file for a PEM <see cref="CertificatePath"/> (<c>certificate_key_path</c>).</summary>
    public string? CertificateKeyPath { get; set; }

    /// <summary>The password of the certificate or key file (<c>certificate_password</c>).</summary>
    public string? CertificatePassword { get; set; }

    /// <summary>
    /// Identities, permissions and quotas (the <c>Security</c> subsection); null (the default) checks nothing, as
    /// before. Reloaded while the router runs when the configuration changes; see <see cref="JsonRpcSecurityOptions"/>.
    /// </summary>
    public JsonRpcSecurityOptions? Security { get; set; }

    /// <summary>
    /// A JSON file holding the <see cref="Security"/> settings at its root (<c>security_file</c>), instead of the
    /// <c>Security</c> subsection; watched and reloaded when it changes.
    /// </summary>
    public string? SecurityFile { get; set; }

    /// <summary>A certificate given in code; takes precedence over <see cref="CertificatePath"/>.</summary>
    public X509Certificate2? Certificate { get; set; }
}
