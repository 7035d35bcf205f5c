using System.Globalization;
using JsonRpc.Server;
using JsonRpc.Server.Cluster;

namespace JsonRpc.Router;

/// <summary>
/// The standalone router's command line, checked before the host starts: <c>--help</c> prints every option with its
/// default; an unknown option or a switch without its value is a one-line error and a non-zero exit, rather than a
/// setting silently ignored. Values themselves are checked where they are bound, with the same one-line error.
/// </summary>
internal static class RouterCommandLine
{
    public const string ToolName = "jsonrpc-router";

    /// <summary>Exit code for a command line that cannot be used (as sysexits' EX_USAGE).</summary>
    public const int UsageError = 64;

    private static readonly JsonRpcRouterOptions Defaults = new();
    private static readonly JsonRpcClusterOptions ClusterDefaults = new();

    // Every switch, in the order --help lists them: the snake_case name, the .NET option name, what it takes, the
    // default, and what it does.
    private static readonly Option[] Options =
    [
        new("host", nameof(JsonRpcRouterOptions.Host), "<address>", Defaults.Host, "Address to listen on: an IP address, localhost, or * for every interface."),
        new("port", nameof(JsonRpcRouterOptions.Port), "<port>", Number(Defaults.Port), "TCP port for JSON-RPC (newline-delimited or Content-Length framed); 0 picks a free one."),
        new("http_port", nameof(JsonRpcRouterOptions.HttpPort), "<port>", "off", "HTTP port: /rpc (WebSocket and POST), /healthz, /metrics (Prometheus), and the dashboard at /; 0 picks a free one."),
        new("keepalive_timeout_ms", nameof(JsonRpcRouterOptions.KeepAliveTimeout), "<ms>", Ms(Defaults.KeepAliveTimeout), "Close a connection silent this long; 0 disables."),
        new("registration_timeout_ms", nameof(JsonRpcRouterOptions.RegistrationTimeout), "<ms>", Ms(Defaults.RegistrationTimeout), "With require_registration, close a connection not registered within this time."),
        new("require_registration", nameof(JsonRpcRouterOptions.RequireRegistration), "[true|false]", "false", "Connections must call register_client before anything else."),
        new("access_token", nameof(JsonRpcRouterOptions.AccessToken), "<token>", "none", "register_client must present it; HTTP POST must send Authorization: Bearer <token>."),
        new("security_file", nameof(JsonRpcRouterOptions.SecurityFile), "<file>", "none", "JSON file of identities, permissions and quotas (the Security settings); reloaded when it changes."),
        new("call_timeout_ms", nameof(JsonRpcRouterOptions.CallTimeout), "<ms>", Ms(Defaults.CallTimeout), "Fail a routed call its provider has not answered within this time; 0 disables."),
        new("max_message_size", nameof(JsonRpcRouterOptions.MaxMessageSize), "<bytes>", Number(Defaults.MaxMessageSize), "Largest message accepted; a larger one is refused and its connection closed."),
        new("max_connections", nameof(JsonRpcRouterOptions.MaxConnections), "<count>", Number(Defaults.MaxConnections), "Most connections served at once (TCP, WebSocket and HTTP requests together)."),
        new("max_pending_calls", nameof(JsonRpcRouterOptions.MaxPendingCallsPerConnection), "<count>", Number(Defaults.MaxPendingCallsPerConnection), "Most calls one connection may have waiting for answers."),
        new("max_routes", nameof(JsonRpcRouterOptions.MaxRoutesPerConnection), "<count>", Number(Defaults.MaxRoutesPerConnection), "Most methods and subscriptions one connection may register."),
        new("max_depth", nameof(JsonRpcRouterOptions.MaxDepth), "<depth>", Number(Defaults.MaxDepth), "Deepest JSON nesting accepted."),
        new("max_outbound_buffer_size", nameof(JsonRpcRouterOptions.MaxOutboundBufferSize), "<bytes>", Number(Defaults.MaxOutboundBufferSize), "Bytes queued for a client that is not reading before it is dropped."),
        new("max_memory", nameof(JsonRpcRouterOptions.MaxMemory), "<bytes>", "a quarter of the memory available", "Memory budget for what is held for clients; near it new calls are refused (-32018)."),
        new("max_penalty_delay_ms", nameof(JsonRpcRouterOptions.MaxPenaltyDelay), "<ms>", Ms(Defaults.MaxPenaltyDelay), "Most a new connection waits when its address was dropped for misbehaviour (0: off)."),
        new("shutdown_timeout_ms", nameof(JsonRpcRouterOptions.ShutdownTimeout), "<ms>", Ms(Defaults.ShutdownTimeout), "On Ctrl+C, how long routed calls may still be answered."),
        new("certificate_path", nameof(JsonRpcRouterOptions.CertificatePath), "<file>", "none", "TLS certificate (.pfx/.p12 or PEM) for both ports: tls://, https://, wss://."),
        new("certificate_key_path", nameof(JsonRpcRouterOptions.CertificateKeyPath), "<file>", "none", "Private key file of a PEM certificate."),
        new("certificate_password", nameof(JsonRpcRouterOptions.CertificatePassword), "<password>", "none", "Password of the certificate or key file."),
        new("nats_url", nameof(JsonRpcClusterOptions.NatsUrl), "<url[,url]>", "none (single node)", "Join a cluster of routers through NATS at these URLs (nats:// or tls://)."),
        new("node_name", nameof(JsonRpcClusterOptions.NodeName), "<name>", "host name and port", "This router's name in the cluster; unique among the nodes."),
        new("cluster_subject_prefix", nameof(JsonRpcClusterOptions.SubjectPrefix), "<prefix>", ClusterDefaults.SubjectPrefix, "First token of every NATS subject the cluster uses; separate clusters on one NATS need different ones."),
        new("cluster_heartbeat_ms", nameof(JsonRpcClusterOptions.HeartbeatInterval), "<ms>", Ms(ClusterDefaults.HeartbeatInterval), "How often a node tells the others it is alive."),
        new("cluster_node_timeout_ms", nameof(JsonRpcClusterOptions.NodeTimeout), "<ms>", Ms(ClusterDefaults.NodeTimeout), "A node silent this long is dropped: its methods vanish and its calls fail."),
        new("cluster_connect_timeout_ms", nameof(JsonRpcClusterOptions.ConnectTimeout), "<ms>", Ms(ClusterDefaults.ConnectTimeout), "How long a connection attempt to NATS may take."),
        new("nats_user", nameof(JsonRpcClusterOptions.NatsUser), "<user>", "none", "NATS user name (with nats_password)."),
        new("nats_password", nameof(JsonRpcClusterOptions.NatsPassword), "<password>", "none", "NATS password."),
        new("nats_token", nameof(JsonRpcClusterOptions.NatsToken), "<token>", "none", "NATS authentication token."),
        new("nats_creds_file", nameof(JsonRpcClusterOptions.NatsCredsFile), "<file>", "none", "NATS credentials file (JWT and NKey seed)."),
        new("nats_nkey_file", nameof(JsonRpcClusterOptions.NatsNKeyFile), "<file>", "none", "NATS NKey seed file."),
        new("nats_tls", nameof(JsonRpcClusterOptions.NatsTls), "[true|false]", "false", "Require TLS to NATS."),
        new("nats_tls_ca_file", nameof(JsonRpcClusterOptions.NatsTlsCaFile), "<file>", "none", "CA certificate that NATS's certificate must chain to."),
        new("nats_tls_cert_file", nameof(JsonRpcClusterOptions.NatsTlsCertFile), "<file>", "none", "Client certificate for NATS (PEM)."),
        new("nats_tls_key_file", nameof(JsonRpcClusterOptions.NatsTlsKeyFile), "<file>", "none", "Key of the client certificate for NATS (PEM)."),
        new("otlp_endpoint", "OtlpEndpoint", "<url>", "none (no export)", "Send traces and metrics over OTLP to this collector (http://host:4317 for gRPC, http://host:4318 for HTTP)."),
        new("otlp_protocol", "OtlpProtocol", "grpc|http/protobuf", "grpc", "The OTLP transport."),
        new("otlp_interval_ms", "OtlpIntervalMs", "<ms>", "60000", "How often metrics are exported over OTLP."),
    ];

    /// <summary>The snake_case switches of the router and of the cluster, for <c>AddCommandLine</c>.</summary>
    public static IDictionary<string, string> SwitchMappings { get; } = JsonRpcRouterConfiguration.CommandLineSwitchMappings
        .Concat(JsonRpcClusterConfiguration.CommandLineSwitchMappings).Concat(RouterTelemetry.SwitchMappings).ToDictionary(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Checks <paramref name="args"/>: returns an exit code when the process should stop here (after --help, or on a
    /// bad command line), or null to run with <paramref name="normalized"/> (a bare <c>--require_registration</c>
    /// given its <c>true</c>).
    /// </summary>
    public static int? Check(string[] args, TextWriter output, TextWriter error, out string[] normalized)
    {
        normalized = args;
        if (Array.Exists(args, static a => a is "--help" or "-h" or "-?" or "/?"))
        {
            WriteHelp(output);
            return 0;
        }

        var result = new List<string>(args.Length + 1);
        for (var i = 0; i < args.Length; i++)
        {
            var arg = args[i];
            if (!arg.StartsWith("--", StringComparison.Ordinal) || arg.Length == 2)
            {
                return Fail(error, $"unexpected argument '{arg}'; options start with --.");
            }

            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var name = equals < 0 ? arg[2..] : arg[2..equals];
            if (!IsKnown(name))
            {
                return Fail(error, $"unknown option '--{name}'.");
            }

            result.Add(arg);
            if (equals >= 0)
            {
                continue;
            }

            var hasValue = i + 1 < args.Length && !args[i + 1].StartsWith("--", StringComparison.Ordinal);
            if (hasValue)
            {
                result.Add(args[++i]);
            }
            else if (IsFlag(name))
            {
                result.Add("true");
            }
            else
            {
                return Fail(error, $"option '--{name}' needs a value.");
            }
        }

        normalized = [.. result];
        return null;
    }

    /// <summary>A one-line error naming what is wrong, on stderr; returns <see cref="UsageError"/>.</summary>
    public static int Fail(TextWriter error, string message)
    {
        error.WriteLine($"{ToolName}: {message.ReplaceLineEndings(" ")} Run '{ToolName} --help' for the options.");
        return UsageError;
    }

    private static bool IsKnown(string name)
    {
        if (SwitchMappings.ContainsKey("--" + name))
        {
            return true;
        }

        // The configuration's own keys: JsonRpcRouter:Port=9000, JsonRpcRouter:call_timeout_ms=500, Logging:LogLevel:Default=Debug.
        const string Section = JsonRpcRouterOptions.SectionName + ":";
        if (name.StartsWith(Section, StringComparison.OrdinalIgnoreCase))
        {
            var key = name[Section.Length..];
            return Array.Exists(Options, o => key.Equals(o.Snake, StringComparison.OrdinalIgnoreCase) || key.Equals(o.Name, StringComparison.OrdinalIgnoreCase));
        }

        return name.StartsWith("Logging:", StringComparison.OrdinalIgnoreCase) || name.Equals("environment", StringComparison.OrdinalIgnoreCase);
    }

    private static bool IsFlag(string name)
        => name.Equals("require_registration", StringComparison.OrdinalIgnoreCase) || name.Equals("nats_tls", StringComparison.OrdinalIgnoreCase);

    private static void WriteHelp(TextWriter output)
    {
        output.WriteLine($"{ToolName}: the standalone JSON-RPC 2.0 router.");
        output.WriteLine();
        output.WriteLine($"Usage: {ToolName} [--option value]...");
        output.WriteLine();
        output.WriteLine("Options (each also JsonRpcRouter:<Name> in appsettings.json and JsonRpcRouter__<Name> in the environment):");
        foreach (var option in Options)
        {
            var left = $"  --{option.Snake} {option.Value}";
            output.WriteLine($"{left,-44} {option.Description} Default: {option.Default}.");
        }

        output.WriteLine($"{"  --Logging:LogLevel:Default <level>",-44} Log level: Trace, Debug, Information, Warning, Error. Default: Information.");
        output.WriteLine($"{"  --help",-44} Show this help and exit.");
        output.WriteLine();
        output.WriteLine($"Example: {ToolName} --port 8080 --http_port 8081, then open http://127.0.0.1:8081/ for the dashboard.");
    }

    private static string Number(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Ms(TimeSpan value) => ((long)value.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);

    private sealed record Option(string Snake, string Name, string Value, string Default, string Description);
}
