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
    private static readonly string[] SnakeCaseNames =
    [
        "host", "port", "http_port", "keepalive_timeout_ms", "registration_timeout_ms", "require_registration", "access_token",
        "call_timeout_ms", "max_message_size", "max_connections", "max_pending_calls", "max_routes", "max_depth",
        "max_outbound_buffer_size", "shutdown_timeout_ms", "certificate_path", "certificate_key_path",
        "certificate_password", "security_file", "max_memory", "max_penalty_delay_ms",
    ];

    /// <summary>
    /// Command-line switches for the snake_case names, to pass to <c>AddCommandLine</c>: <c>--port 9000</c> sets
    /// <c>JsonRpcRouter:port</c>.
    /// </summary>
    public static IReadOnlyDictionary<string, string> CommandLineSwitchMappings { get; } = CreateSwitchMappings();

    /// <summary>Sets every option present in <paramref name="section"/>; leaves the others as they are.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be read; the message names the key.</exception>
    public static void Bind(IConfiguration section, JsonRpcRouterOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);

        options.Host = ReadString(section, "Host", "host") ?? options.Host;
        options.Port = ReadInt(section, "Port", "port") ?? options.Port;
        options.HttpPort = ReadInt(section, "HttpPort", "http_port") ?? options.HttpPort;
        options.KeepAliveTimeout = ReadTime(section, "KeepAliveTimeout", "keepalive_timeout_ms") ?? options.KeepAliveTimeout;
        options.RegistrationTimeout = ReadTime(section, "RegistrationTimeout", "registration_timeout_ms") ?? options.RegistrationTimeout;
        options.RequireRegistration = ReadBool(section, "RequireRegistration", "require_registration") ?? options.RequireRegistration;
        options.AccessToken = ReadString(section, "AccessToken", "access_token") ?? options.AccessToken;
        options.CallTimeout = ReadTime(section, "CallTimeout", "call_timeout_ms") ?? options.CallTimeout;
        options.MaxMessageSize = ReadInt(section, "MaxMessageSize", "max_message_size") ?? options.MaxMessageSize;
        options.MaxConnections = ReadInt(section, "MaxConnections", "max_connections") ?? options.MaxConnections;
        options.MaxPendingCallsPerConnection = ReadInt(section, "MaxPendingCallsPerConnection", "max_pending_calls") ?? options.MaxPendingCallsPerConnection;
        options.MaxRoutesPerConnection = ReadInt(section, "MaxRoutesPerConnection", "max_routes") ?? options.MaxRoutesPerConnection;
        options.MaxDepth = ReadInt(section, "MaxDepth", "max_depth") ?? options.MaxDepth;
        options.MaxOutboundBufferSize = ReadInt(section, "MaxOutboundBufferSize", "max_outbound_buffer_size") ?? options.MaxOutboundBufferSize;
        options.MaxMemory = ReadLong(section, "MaxMemory", "max_memory") ?? options.MaxMemory;
        options.MaxPenaltyDelay = ReadTime(section, "MaxPenaltyDelay", "max_penalty_delay_ms") ?? options.MaxPenaltyDelay;
        options.ShutdownTimeout = ReadTime(section, "ShutdownTimeout", "shutdown_timeout_ms") ?? options.ShutdownTimeout;
        options.CertificatePath = ReadString(section, "CertificatePath", "certificate_path") ?? options.CertificatePath;
        options.CertificateKeyPath = ReadString(section, "CertificateKeyPath", "certificate_key_path") ?? options.CertificateKeyPath;
        options.CertificatePassword = ReadString(section, "CertificatePassword", "certificate_password") ?? options.CertificatePassword;
        options.SecurityFile = ReadString(section, "SecurityFile", "security_file") ?? options.SecurityFile;
        options.Security = ReadSecurity(section, options.SecurityFile) ?? options.Security;
    }

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

    private static Dictionary<string, string> CreateSwitchMappings()
    {
        var mappings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var name in SnakeCaseNames)
        {
            mappings["--" + name] = JsonRpcRouterOptions.SectionName + ":" + name;
        }

        return mappings;
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
