using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace JsonRpc.Server;

/// <summary>
/// Reads <see cref="JsonRpcRouterOptions"/> from configuration without reflection (trimming and AOT safe). Each
/// setting is found under its .NET name (<c>Port</c>, <c>CallTimeout</c> as a TimeSpan such as <c>00:00:30</c>) or
/// under the original router's snake_case name (<c>port</c>, <c>call_timeout_ms</c> in milliseconds).
/// </summary>
public static class JsonRpcRouterConfiguration
{
    private static readonly JsonRpcRouterOptions Defaults = new();

    /// <summary>
    /// Every setting of <see cref="JsonRpcRouterOptions"/> but <c>Security</c> (a section of its own), in the order
    /// <c>--help</c> lists them: binding, the switch mappings, <c>--help</c> and the validator's messages come from here.
    /// </summary>
    internal static readonly ConfigOption<JsonRpcRouterOptions>[] Options =
    [
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.Host), "host", "<address>", Defaults.Host, "Address to listen on: an IP address, localhost, or * for every interface.", static (o, v) => o.Host = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.Port), "port", "<port>", Defaults.Port, "TCP port for JSON-RPC (newline-delimited or Content-Length framed); 0 picks a free one.", static (o, v) => o.Port = v),
        new(nameof(JsonRpcRouterOptions.HttpPort), "http_port", "<port>", "off", "HTTP port: /rpc (WebSocket and POST), /healthz, /metrics (Prometheus), and the dashboard at /; 0 picks a free one.",
            static (section, o, options) => options.HttpPort = ReadInt(section, o.Name, o.Snake) ?? options.HttpPort),
        ConfigOption<JsonRpcRouterOptions>.Time(nameof(JsonRpcRouterOptions.KeepAliveTimeout), "keepalive_timeout_ms", Defaults.KeepAliveTimeout, "Close a connection silent this long; 0 disables.", static (o, v) => o.KeepAliveTimeout = v),
        ConfigOption<JsonRpcRouterOptions>.Time(nameof(JsonRpcRouterOptions.RegistrationTimeout), "registration_timeout_ms", Defaults.RegistrationTimeout, "With require_registration, close a connection not registered within this time.", static (o, v) => o.RegistrationTimeout = v),
        ConfigOption<JsonRpcRouterOptions>.Bool(nameof(JsonRpcRouterOptions.RequireRegistration), "require_registration", Defaults.RequireRegistration, "Connections must call register_client before anything else.", static (o, v) => o.RequireRegistration = v),
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.AccessToken), "access_token", "<token>", null, "register_client must present it; HTTP POST must send Authorization: Bearer <token>.", static (o, v) => o.AccessToken = v),
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.SecurityFile), "security_file", "<file>", null, "JSON file of identities, permissions and quotas (the Security settings); reloaded when it changes.", static (o, v) => o.SecurityFile = v),
        ConfigOption<JsonRpcRouterOptions>.Time(nameof(JsonRpcRouterOptions.CallTimeout), "call_timeout_ms", Defaults.CallTimeout, "Fail a routed call its provider has not answered within this time; 0 disables.", static (o, v) => o.CallTimeout = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxMessageSize), "max_message_size", "<bytes>", Defaults.MaxMessageSize, "Largest message accepted; a larger one is refused and its connection closed.", static (o, v) => o.MaxMessageSize = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxConnections), "max_connections", "<count>", Defaults.MaxConnections, "Most connections served at once (TCP, WebSocket and HTTP requests together).", static (o, v) => o.MaxConnections = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxPendingCallsPerConnection), "max_pending_calls", "<count>", Defaults.MaxPendingCallsPerConnection, "Most calls one connection may have waiting for answers.", static (o, v) => o.MaxPendingCallsPerConnection = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxRoutesPerConnection), "max_routes", "<count>", Defaults.MaxRoutesPerConnection, "Most methods and subscriptions one connection may register.", static (o, v) => o.MaxRoutesPerConnection = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxDepth), "max_depth", "<depth>", Defaults.MaxDepth, "Deepest JSON nesting accepted.", static (o, v) => o.MaxDepth = v),
        ConfigOption<JsonRpcRouterOptions>.Int(nameof(JsonRpcRouterOptions.MaxOutboundBufferSize), "max_outbound_buffer_size", "<bytes>", Defaults.MaxOutboundBufferSize, "What the router may hold for one client (its queue and batch replies); past half it stops reading the client.", static (o, v) => o.MaxOutboundBufferSize = v),
        ConfigOption<JsonRpcRouterOptions>.Long(nameof(JsonRpcRouterOptions.MaxMemory), "max_memory", "<bytes>", "a quarter of the memory available", "Memory budget for what is held for clients; near it new calls are refused (-32018).", static (o, v) => o.MaxMemory = v),
        ConfigOption<JsonRpcRouterOptions>.Time(nameof(JsonRpcRouterOptions.MaxPenaltyDelay), "max_penalty_delay_ms", Defaults.MaxPenaltyDelay, "Most a new connection waits when its address was dropped for misbehaviour (0: off).", static (o, v) => o.MaxPenaltyDelay = v),
        ConfigOption<JsonRpcRouterOptions>.Bool(nameof(JsonRpcRouterOptions.StreamReadAhead), "stream_read_ahead", Defaults.StreamReadAhead, "Read one batch ahead of the consumer of a prefetching StreamJsonRpc async enumerable.", static (o, v) => o.StreamReadAhead = v),
        ConfigOption<JsonRpcRouterOptions>.Time(nameof(JsonRpcRouterOptions.ShutdownTimeout), "shutdown_timeout_ms", Defaults.ShutdownTimeout, "On Ctrl+C, how long routed calls may still be answered.", static (o, v) => o.ShutdownTimeout = v),
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.CertificatePath), "certificate_path", "<file>", null, "TLS certificate (.pfx/.p12 or PEM) for both ports: tls://, https://, wss://.", static (o, v) => o.CertificatePath = v),
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.CertificateKeyPath), "certificate_key_path", "<file>", null, "Private key file of a PEM certificate.", static (o, v) => o.CertificateKeyPath = v),
        ConfigOption<JsonRpcRouterOptions>.Text(nameof(JsonRpcRouterOptions.CertificatePassword), "certificate_password", "<password>", null, "Password of the certificate or key file.", static (o, v) => o.CertificatePassword = v),
    ];

    /// <summary>
    /// Command-line switches for the snake_case names, to pass to <c>AddCommandLine</c>: <c>--port 9000</c> sets
    /// <c>JsonRpcRouter:port</c>.
    /// </summary>
    public static IReadOnlyDictionary<string, string> CommandLineSwitchMappings { get; } = ConfigOption.SwitchMappings(Options);

    /// <summary>Sets every option present in <paramref name="section"/>; leaves the others as they are.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be read; the message names the key.</exception>
    public static void Bind(IConfiguration section, JsonRpcRouterOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);
        foreach (var option in Options)
        {
            option.Bind(section, options);
        }

        options.Security = ReadSecurity(section, options.SecurityFile) ?? options.Security;
    }

    /// <summary>How messages name the router setting <paramref name="name"/>: <c>MaxMemory (max_memory)</c>.</summary>
    internal static string Describe(string name) => ConfigOption.Describe(Options, name);

    /// <summary>
    /// The security settings: the root of <paramref name="securityFile"/> when one is named (read now; the router watches
    /// it for changes), else the <c>Security</c> subsection of <paramref name="section"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">The file cannot be read, or a setting is unknown or unreadable.</exception>
    public static JsonRpcSecurityOptions? ReadSecurity(IConfiguration section, string? securityFile)
    {
        ArgumentNullException.ThrowIfNull(section);
        if (securityFile is null)
        {
            return JsonRpcSecurityConfiguration.Read(section.GetSection("Security"));
        }

        IConfigurationRoot file;
        try
        {
            file = new ConfigurationBuilder().AddJsonFile(Path.GetFullPath(securityFile), optional: false, reloadOnChange: false).Build();
        }
        catch (Exception ex) when (ex is IOException or FormatException or UnauthorizedAccessException or InvalidDataException)
        {
            throw new InvalidOperationException($"Security file '{securityFile}' cannot be read: {ex.Message}", ex);
        }

        try
        {
            return JsonRpcSecurityConfiguration.Read(file) ?? new JsonRpcSecurityOptions();
        }
        catch (InvalidOperationException ex)
        {
            throw new InvalidOperationException($"Security file '{securityFile}': {ex.Message}", ex);
        }
    }

    internal static string? ReadString(IConfiguration section, string name, string alias)
    {
        var value = section[alias];
        return string.IsNullOrEmpty(value) ? NullIfEmpty(section[name]) : value;
    }

    private static string? NullIfEmpty(string? value) => string.IsNullOrEmpty(value) ? null : value;

    internal static int? ReadInt(IConfiguration section, string name, string alias) => (int?)ReadInteger(section, name, alias, int.MinValue, int.MaxValue);

    internal static long? ReadLong(IConfiguration section, string name, string alias) => ReadInteger(section, name, alias, long.MinValue, long.MaxValue);

    private static long? ReadInteger(IConfiguration section, string name, string alias, long min, long max)
    {
        var (key, text) = Find(section, name, alias);
        if (text is null)
        {
            return null;
        }

        return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw Invalid(section, key, text, "an integer");
    }

    internal static bool? ReadBool(IConfiguration section, string name, string alias)
    {
        var (key, text) = Find(section, name, alias);
        if (text is null)
        {
            return null;
        }

        return bool.TryParse(text, out var value) ? value
            : text == "1" ? true
            : text == "0" ? false
            : throw Invalid(section, key, text, "true or false");
    }

    internal static TimeSpan? ReadTime(IConfiguration section, string name, string millisecondsAlias)
    {
        var ms = section[millisecondsAlias];
        if (!string.IsNullOrEmpty(ms))
        {
            return long.TryParse(ms, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0
                ? TimeSpan.FromMilliseconds(value)
                : throw Invalid(section, millisecondsAlias, ms, "a whole number of milliseconds");
        }

        var text = section[name];
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var span)
            ? span
            : throw Invalid(section, name, text, "a time span such as 00:00:30");
    }

    private static (string Key, string? Text) Find(IConfiguration section, string name, string alias)
    {
        var text = section[alias];
        return string.IsNullOrEmpty(text) ? (name, NullIfEmpty(section[name])) : (alias, text);
    }

    private static InvalidOperationException Invalid(IConfiguration section, string key, string text, string expected)
    {
        var path = section is IConfigurationSection s ? s.Path + ":" + key : key;
        return new InvalidOperationException($"Configuration value '{path}' = '{text}' is not {expected}.");
    }
}
