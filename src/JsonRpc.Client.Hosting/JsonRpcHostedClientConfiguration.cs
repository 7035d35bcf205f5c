using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace JsonRpc.Client.Hosting;

/// <summary>
/// Reads a client's section (<c>JsonRpc:Clients:{name}</c>) key by key, with no reflection: a value that does not
/// parse is an error that names its key and what it should be.
/// </summary>
internal static class JsonRpcHostedClientConfiguration
{
    public static void Bind(IConfigurationSection section, JsonRpcHostedClientOptions options)
    {
        var client = options.Client;
        if (section[nameof(options.Uri)] is { Length: > 0 } uri)
        {
            options.Uri = Uri.TryCreate(uri, UriKind.Absolute, out var parsed)
                ? parsed
                : throw Bad(section, nameof(options.Uri), uri, "an absolute address such as tcp://127.0.0.1:8080 or ws://host:port/rpc");
        }

        options.Host = section[nameof(options.Host)] is { Length: > 0 } host ? host : options.Host;
        options.Port = ReadInt(section, nameof(options.Port)) ?? options.Port;
        options.Name = section[nameof(options.Name)] is { Length: > 0 } name ? name : options.Name;
        client.AccessToken = section[nameof(client.AccessToken)] is { Length: > 0 } token ? token : client.AccessToken;
        if (section[nameof(client.Framing)] is { Length: > 0 } framing)
        {
            client.Framing = Enum.TryParse<JsonRpcClientFraming>(framing, ignoreCase: true, out var value) && Enum.IsDefined(value)
                ? value
                : throw Bad(section, nameof(client.Framing), framing, "NewlineDelimited or ContentLength");
        }

        client.CallTimeout = ReadTime(section, nameof(client.CallTimeout)) ?? client.CallTimeout;
        client.ConnectTimeout = ReadTime(section, nameof(client.ConnectTimeout)) ?? client.ConnectTimeout;
        client.KeepAliveInterval = ReadTime(section, nameof(client.KeepAliveInterval)) ?? client.KeepAliveInterval;

        var reconnect = section.GetSection(nameof(client.Reconnect));
        if (reconnect.Value is { Length: > 0 } enabled)
        {
            client.Reconnect.Enabled = bool.TryParse(enabled, out var on) ? on : throw Bad(section, nameof(client.Reconnect), enabled, "true or false");
        }

        if (reconnect[nameof(JsonRpcReconnectOptions.Enabled)] is { Length: > 0 } enabledKey)
        {
            client.Reconnect.Enabled = bool.TryParse(enabledKey, out var on) ? on : throw Bad(reconnect, nameof(JsonRpcReconnectOptions.Enabled), enabledKey, "true or false");
        }

        client.Reconnect.InitialDelay = ReadTime(reconnect, nameof(JsonRpcReconnectOptions.InitialDelay)) ?? client.Reconnect.InitialDelay;
        client.Reconnect.MaxDelay = ReadTime(reconnect, nameof(JsonRpcReconnectOptions.MaxDelay)) ?? client.Reconnect.MaxDelay;
        client.Reconnect.MaxAttempts = ReadInt(reconnect, nameof(JsonRpcReconnectOptions.MaxAttempts)) ?? client.Reconnect.MaxAttempts;
    }

    private static int? ReadInt(IConfigurationSection section, string key)
        => section[key] is not { Length: > 0 } text ? null
            : int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value
            : throw Bad(section, key, text, "a whole number");

    private static TimeSpan? ReadTime(IConfigurationSection section, string key)
        => section[key] is not { Length: > 0 } text ? null
            : TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var value) ? value
            : throw Bad(section, key, text, "a time span such as 00:00:05");

    private static InvalidOperationException Bad(IConfigurationSection section, string key, string value, string expected)
        => new($"Configuration '{section.Path}:{key}': '{value}' is not {expected}.");
}
