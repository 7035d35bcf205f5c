using Microsoft.Extensions.Configuration;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// Reads <see cref="JsonRpcClusterOptions"/> from the router's configuration section without reflection, under the
/// .NET names (<c>NatsUrl</c>, <c>HeartbeatInterval</c> as a TimeSpan) or the snake_case ones (<c>nats_url</c>,
/// <c>cluster_heartbeat_ms</c> in milliseconds), as <see cref="JsonRpcRouterConfiguration"/> does for the router.
/// </summary>
public static class JsonRpcClusterConfiguration
{
    private static readonly JsonRpcClusterOptions Defaults = new();

    /// <summary>Every cluster setting, in the order <c>--help</c> lists them (after the router's).</summary>
    internal static readonly ConfigOption<JsonRpcClusterOptions>[] Options =
    [
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsUrl), "nats_url", "<url[,url]>", "none (single node)", "Join a cluster of routers through NATS at these URLs (nats:// or tls://).", static (o, v) => o.NatsUrl = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NodeName), "node_name", "<name>", "host name and port", "This router's name in the cluster; unique among the nodes.", static (o, v) => o.NodeName = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.SubjectPrefix), "cluster_subject_prefix", "<prefix>", Defaults.SubjectPrefix, "First token of every NATS subject the cluster uses; separate clusters on one NATS need different ones.", static (o, v) => o.SubjectPrefix = v),
        ConfigOption<JsonRpcClusterOptions>.Time(nameof(JsonRpcClusterOptions.HeartbeatInterval), "cluster_heartbeat_ms", Defaults.HeartbeatInterval, "How often a node tells the others it is alive.", static (o, v) => o.HeartbeatInterval = v),
        ConfigOption<JsonRpcClusterOptions>.Time(nameof(JsonRpcClusterOptions.NodeTimeout), "cluster_node_timeout_ms", Defaults.NodeTimeout, "A node silent this long is dropped: its methods vanish and its calls fail.", static (o, v) => o.NodeTimeout = v),
        ConfigOption<JsonRpcClusterOptions>.Time(nameof(JsonRpcClusterOptions.ConnectTimeout), "cluster_connect_timeout_ms", Defaults.ConnectTimeout, "How long a connection attempt to NATS may take.", static (o, v) => o.ConnectTimeout = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsUser), "nats_user", "<user>", null, "NATS user name (with nats_password).", static (o, v) => o.NatsUser = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsPassword), "nats_password", "<password>", null, "NATS password.", static (o, v) => o.NatsPassword = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsToken), "nats_token", "<token>", null, "NATS authentication token.", static (o, v) => o.NatsToken = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsCredsFile), "nats_creds_file", "<file>", null, "NATS credentials file (JWT and NKey seed).", static (o, v) => o.NatsCredsFile = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsNKeyFile), "nats_nkey_file", "<file>", null, "NATS NKey seed file.", static (o, v) => o.NatsNKeyFile = v),
        ConfigOption<JsonRpcClusterOptions>.Bool(nameof(JsonRpcClusterOptions.NatsTls), "nats_tls", Defaults.NatsTls, "Require TLS to NATS.", static (o, v) => o.NatsTls = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsTlsCaFile), "nats_tls_ca_file", "<file>", null, "CA certificate that NATS's certificate must chain to.", static (o, v) => o.NatsTlsCaFile = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsTlsCertFile), "nats_tls_cert_file", "<file>", null, "Client certificate for NATS (PEM).", static (o, v) => o.NatsTlsCertFile = v),
        ConfigOption<JsonRpcClusterOptions>.Text(nameof(JsonRpcClusterOptions.NatsTlsKeyFile), "nats_tls_key_file", "<file>", null, "Key of the client certificate for NATS (PEM).", static (o, v) => o.NatsTlsKeyFile = v),
    ];

    /// <summary>
    /// Command-line switches for the snake_case names, to pass to <c>AddCommandLine</c> beside the router's:
    /// <c>--nats_url nats://127.0.0.1:4222</c> sets <c>JsonRpcRouter:nats_url</c>.
    /// </summary>
    public static IReadOnlyDictionary<string, string> CommandLineSwitchMappings { get; } = ConfigOption.SwitchMappings(Options);

    /// <summary>Sets every option present in <paramref name="section"/>; leaves the others as they are.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be read; the message names the key.</exception>
    public static void Bind(IConfiguration section, JsonRpcClusterOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);
        foreach (var option in Options)
        {
            option.Bind(section, options);
        }
    }

    /// <summary>Why <paramref name="options"/> cannot work, or null when they can.</summary>
    public static string? Validate(JsonRpcClusterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.NodeName is { } name && !IsToken(name))
        {
            return $"{D(nameof(JsonRpcClusterOptions.NodeName))} '{name}' must be 1 to 128 letters, digits or '-', '_', ':', '@'.";
        }

        if (!IsToken(options.SubjectPrefix))
        {
            return $"{D(nameof(JsonRpcClusterOptions.SubjectPrefix))} '{options.SubjectPrefix}' must be 1 to 128 letters, digits or '-', '_', ':', '@'.";
        }

        if (options.HeartbeatInterval <= TimeSpan.Zero)
        {
            return $"{D(nameof(JsonRpcClusterOptions.HeartbeatInterval))} must be positive.";
        }

        if (options.NodeTimeout < 2 * options.HeartbeatInterval)
        {
            return $"{D(nameof(JsonRpcClusterOptions.NodeTimeout))} must be at least twice {D(nameof(JsonRpcClusterOptions.HeartbeatInterval))}.";
        }

        return options.NatsTlsCertFile is null != options.NatsTlsKeyFile is null
            ? $"{D(nameof(JsonRpcClusterOptions.NatsTlsCertFile))} and {D(nameof(JsonRpcClusterOptions.NatsTlsKeyFile))} go together."
            : null;
    }

    private static string D(string name) => ConfigOption.Describe(Options, name);

    /// <summary>Whether <paramref name="name"/> can be one token of a NATS subject as the cluster uses it.</summary>
    internal static bool IsToken(string name)
    {
        if (name.Length is 0 or > 128)
        {
            return false;
        }

        foreach (var c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or ':' or '@'))
            {
                return false;
            }
        }

        return true;
    }
}
