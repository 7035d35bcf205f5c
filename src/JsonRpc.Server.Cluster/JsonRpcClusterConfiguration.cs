using Microsoft.Extensions.Configuration;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// Reads <see cref="JsonRpcClusterOptions"/> from the router's configuration section without reflection, under the
/// .NET names (<c>NatsUrl</c>, <c>HeartbeatInterval</c> as a TimeSpan) or the snake_case ones (<c>nats_url</c>,
/// <c>cluster_heartbeat_ms</c> in milliseconds), as <see cref="JsonRpcRouterConfiguration"/> does for the router.
/// </summary>
public static class JsonRpcClusterConfiguration
{
    private static readonly string[] SnakeCaseNames =
    [
        "nats_url", "node_name", "cluster_subject_prefix", "cluster_heartbeat_ms", "cluster_node_timeout_ms",
        "cluster_connect_timeout_ms", "nats_user", "nats_password", "nats_token", "nats_creds_file", "nats_nkey_file",
        "nats_tls", "nats_tls_ca_file", "nats_tls_cert_file", "nats_tls_key_file",
    ];

    /// <summary>
    /// Command-line switches for the snake_case names, to pass to <c>AddCommandLine</c> beside the router's:
    /// <c>--nats_url nats://127.0.0.1:4222</c> sets <c>JsonRpcRouter:nats_url</c>.
    /// </summary>
    public static IReadOnlyDictionary<string, string> CommandLineSwitchMappings { get; } = CreateSwitchMappings();

    /// <summary>Sets every option present in <paramref name="section"/>; leaves the others as they are.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be read; the message names the key.</exception>
    public static void Bind(IConfiguration section, JsonRpcClusterOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);

        options.NatsUrl = JsonRpcRouterConfiguration.ReadString(section, "NatsUrl", "nats_url") ?? options.NatsUrl;
        options.NodeName = JsonRpcRouterConfiguration.ReadString(section, "NodeName", "node_name") ?? options.NodeName;
        options.SubjectPrefix = JsonRpcRouterConfiguration.ReadString(section, "SubjectPrefix", "cluster_subject_prefix") ?? options.SubjectPrefix;
        options.HeartbeatInterval = JsonRpcRouterConfiguration.ReadTime(section, "HeartbeatInterval", "cluster_heartbeat_ms") ?? options.HeartbeatInterval;
        options.NodeTimeout = JsonRpcRouterConfiguration.ReadTime(section, "NodeTimeout", "cluster_node_timeout_ms") ?? options.NodeTimeout;
        options.ConnectTimeout = JsonRpcRouterConfiguration.ReadTime(section, "ConnectTimeout", "cluster_connect_timeout_ms") ?? options.ConnectTimeout;
        options.NatsUser = JsonRpcRouterConfiguration.ReadString(section, "NatsUser", "nats_user") ?? options.NatsUser;
        options.NatsPassword = JsonRpcRouterConfiguration.ReadString(section, "NatsPassword", "nats_password") ?? options.NatsPassword;
        options.NatsToken = JsonRpcRouterConfiguration.ReadString(section, "NatsToken", "nats_token") ?? options.NatsToken;
        options.NatsCredsFile = JsonRpcRouterConfiguration.ReadString(section, "NatsCredsFile", "nats_creds_file") ?? options.NatsCredsFile;
        options.NatsNKeyFile = JsonRpcRouterConfiguration.ReadString(section, "NatsNKeyFile", "nats_nkey_file") ?? options.NatsNKeyFile;
        options.NatsTls = JsonRpcRouterConfiguration.ReadBool(section, "NatsTls", "nats_tls") ?? options.NatsTls;
        options.NatsTlsCaFile = JsonRpcRouterConfiguration.ReadString(section, "NatsTlsCaFile", "nats_tls_ca_file") ?? options.NatsTlsCaFile;
        options.NatsTlsCertFile = JsonRpcRouterConfiguration.ReadString(section, "NatsTlsCertFile", "nats_tls_cert_file") ?? options.NatsTlsCertFile;
        options.NatsTlsKeyFile = JsonRpcRouterConfiguration.ReadString(section, "NatsTlsKeyFile", "nats_tls_key_file") ?? options.NatsTlsKeyFile;
    }

    /// <summary>Why <paramref name="options"/> cannot work, or null when they can.</summary>
    public static string? Validate(JsonRpcClusterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.NodeName is { } name && !IsToken(name))
        {
            return $"NodeName '{name}' must be 1 to 128 letters, digits or '-', '_', ':', '@'.";
        }

        if (!IsToken(options.SubjectPrefix))
        {
            return $"SubjectPrefix '{options.SubjectPrefix}' must be 1 to 128 letters, digits or '-', '_', ':', '@'.";
        }

        if (options.HeartbeatInterval <= TimeSpan.Zero)
        {
            return "HeartbeatInterval must be positive.";
        }

        if (options.NodeTimeout < 2 * options.HeartbeatInterval)
        {
            return "NodeTimeout must be at least twice HeartbeatInterval.";
        }

        return options.NatsTlsCertFile is null != options.NatsTlsKeyFile is null
            ? "NatsTlsCertFile and NatsTlsKeyFile go together."
            : null;
    }

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

    private static Dictionary<string, string> CreateSwitchMappings()
    {
        var mappings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var name in SnakeCaseNames)
        {
            mappings["--" + name] = JsonRpcRouterOptions.SectionName + ":" + name;
        }

        return mappings;
    }
}
