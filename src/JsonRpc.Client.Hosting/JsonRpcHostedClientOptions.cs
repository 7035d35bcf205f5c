namespace JsonRpc.Client.Hosting;

/// <summary>
/// A hosted client's settings (<c>AddJsonRpcClient</c>), named by the client's name and read from the configuration
/// section <c>JsonRpc:Clients:{name}</c> (see <see cref="SectionPrefix"/>), then from the code's configure action.
/// </summary>
/// <remarks>
/// Configuration keys: <c>Uri</c> (<c>tcp://host:port</c>, <c>ws://…</c>, <c>wss://…</c>) or <c>Host</c> and <c>Port</c>;
/// <c>Name</c>; <c>AccessToken</c>; <c>Framing</c> (<c>NewlineDelimited</c> or <c>ContentLength</c>);
/// <c>CallTimeout</c>, <c>ConnectTimeout</c>, <c>KeepAliveInterval</c> (<c>hh:mm:ss</c>); <c>Reconnect</c> (true or
/// false) and <c>Reconnect:InitialDelay</c>, <c>Reconnect:MaxDelay</c>, <c>Reconnect:MaxAttempts</c>.
/// </remarks>
public sealed class JsonRpcHostedClientOptions
{
    /// <summary>The configuration section that holds one section per client: <c>JsonRpc:Clients</c>.</summary>
    public const string SectionPrefix = "JsonRpc:Clients";

    /// <summary>Where to connect: <c>tcp://host:port</c>, <c>ws://host:port/rpc</c> or <c>wss://…</c>. Set this or <see cref="Host"/> and <see cref="Port"/>.</summary>
    public Uri? Uri { get; set; }

    /// <summary>The router's host name or address, with <see cref="Port"/> (raw TCP), when <see cref="Uri"/> is not set. Default 127.0.0.1.</summary>
    public string? Host { get; set; }

    /// <summary>The router's TCP port, when <see cref="Uri"/> is not set.</summary>
    public int? Port { get; set; }

    /// <summary>
    /// The name the client registers with the router (<c>register_client</c>). When null, a client that serves
    /// targets registers under its own name (<c>AddJsonRpcClient</c>'s), and one that only calls does not register.
    /// </summary>
    public string? Name { get; set; }

    /// <summary>The connection's settings: framing, token, timeouts, reconnect, serializer options, TLS, logging.</summary>
    public JsonRpcClientOptions Client { get; set; } = new();
}
