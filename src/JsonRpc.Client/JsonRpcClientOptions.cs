using System.Net.Security;
using System.Text.Json;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Client;

/// <summary>Settings of a <see cref="JsonRpcClient"/>. Copied once, at <see cref="JsonRpcClient.ConnectAsync(string, int, JsonRpcClientOptions?, CancellationToken)"/>.</summary>
public sealed class JsonRpcClientOptions
{
    /// <summary>The default of <see cref="MaxMessageSize"/>: 4 MiB, as the framers' and the router's.</summary>
    public const int DefaultMaxMessageSize = JsonRpc.Framing.JsonRpcFramer.DefaultMaxMessageSize;

    /// <summary>How messages are delimited. Default <see cref="JsonRpcClientFraming.NewlineDelimited"/>.</summary>
    public JsonRpcClientFraming Framing { get; set; } = JsonRpcClientFraming.NewlineDelimited;

    /// <summary>
    /// TLS: null (the default) for plain TCP; set it (even to <c>new()</c>) to run TLS. An empty
    /// <see cref="SslClientAuthenticationOptions.TargetHost"/> becomes the host passed to ConnectAsync.
    /// </summary>
    public SslClientAuthenticationOptions? Tls { get; set; }

    /// <summary>
    /// How long a call waits for its answer before it fails with <see cref="TimeoutException"/>; the late answer is
    /// dropped. Checked every eighth of it (at least every second, at most every 10 ms), so a call fails that much
    /// after its deadline at the latest. It also bounds the wait for a connection while reconnecting. Default 30 s;
    /// <see cref="Timeout.InfiniteTimeSpan"/> for none.
    /// </summary>
    public TimeSpan CallTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How long opening a connection (TCP, TLS) may take. Default 10 s.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// After this long without sending anything the client sends a <c>keepAlive</c> call, so that a router's idle
    /// timeout never closes a healthy connection; an answer (even an error from a server that has no such method)
    /// proves the connection alive, no answer within <see cref="CallTimeout"/> closes it as dead. Default 15 s; <see cref="Timeout.InfiniteTimeSpan"/> or <see cref="TimeSpan.Zero"/> turns it off.
    /// </summary>
    public TimeSpan KeepAliveInterval { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>Reconnecting after a lost connection; see <see cref="JsonRpcReconnectOptions"/>. Default: on.</summary>
    public JsonRpcReconnectOptions Reconnect { get; set; } = new();

    /// <summary>The largest message accepted from the peer, in bytes; a larger one closes the connection. Default 4 MiB.</summary>
    public int MaxMessageSize { get; set; } = DefaultMaxMessageSize;

    /// <summary>
    /// Serializer options for the overloads that take no <see cref="System.Text.Json.Serialization.Metadata.JsonTypeInfo"/>
    /// (reflection-based unless they name a source-generated resolver). Default: <see cref="JsonSerializerDefaults.Web"/>
    /// (camelCase names, case-insensitive reading).
    /// </summary>
    public JsonSerializerOptions SerializerOptions { get; set; } = new(JsonSerializerDefaults.Web);

    /// <summary>
    /// The token (a static token or a JWT) the client authenticates with, for a router that requires one: sent with
    /// <c>authenticate</c> as soon as a TCP connection opens (and again after each reconnect) and with
    /// <c>register_client</c>, or as <c>Authorization: Bearer</c> when a WebSocket opens. Default none.
    /// </summary>
    public string? AccessToken { get; set; }

    /// <summary>
    /// Whether a served method's unexpected exception answers with its message (true, the default) or only with
    /// "Internal error". Exception types and stacks never leave the process.
    /// </summary>
    public bool IncludeExceptionMessages { get; set; } = true;

    /// <summary>
    /// How many events may wait for one event's handlers; beyond that new events are dropped and logged, so that a slow
    /// handler neither grows memory without bound nor stalls the connection. Default 10,000.
    /// </summary>
    public int EventQueueCapacity { get; set; } = 10_000;

    /// <summary>
    /// How many calls from the peer to this client's methods may be queued or running at once; a request beyond it is
    /// answered at once with -32000 "Server busy" (a notification beyond it is dropped and logged), so that a peer cannot
    /// make the client hold unbounded work and memory. Behind the router, a provider gets at most what its callers may
    /// have pending (the router's <c>max_pending_calls</c> each); raise this with it. Default 65,536.
    /// </summary>
    public int MaxConcurrentIncomingCalls { get; set; } = 65_536;

    /// <summary>Where the client logs connects, disconnects, reconnects and peer errors. Default: nowhere.</summary>
    public ILoggerFactory? LoggerFactory { get; set; }

    /// <summary>A private copy, so that changing these options after connecting changes nothing.</summary>
    internal JsonRpcClientOptions Snapshot() => new()
    {
        Framing = Framing,
        Tls = Tls,
        CallTimeout = CallTimeout,
        ConnectTimeout = ConnectTimeout,
        KeepAliveInterval = KeepAliveInterval,
        Reconnect = Reconnect is null ? null! : new JsonRpcReconnectOptions
        {
            Enabled = Reconnect.Enabled,
            InitialDelay = Reconnect.InitialDelay,
            MaxDelay = Reconnect.MaxDelay,
            Multiplier = Reconnect.Multiplier,
            Jitter = Reconnect.Jitter,
            MaxAttempts = Reconnect.MaxAttempts,
            WaitWhileReconnecting = Reconnect.WaitWhileReconnecting,
        },
        MaxMessageSize = MaxMessageSize,
        SerializerOptions = SerializerOptions,
        AccessToken = AccessToken,
        IncludeExceptionMessages = IncludeExceptionMessages,
        EventQueueCapacity = EventQueueCapacity,
        MaxConcurrentIncomingCalls = MaxConcurrentIncomingCalls,
        LoggerFactory = LoggerFactory,
    };

    internal JsonRpcClientOptions Validate()
    {
        ArgumentNullException.ThrowIfNull(Reconnect, nameof(Reconnect));
        ArgumentNullException.ThrowIfNull(SerializerOptions, nameof(SerializerOptions));
        Reconnect.Validate();
        ThrowIfNotPositiveOrInfinite(CallTimeout, nameof(CallTimeout));
        ThrowIfNotPositiveOrInfinite(ConnectTimeout, nameof(ConnectTimeout));
        if (KeepAliveInterval != Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(KeepAliveInterval, TimeSpan.Zero, nameof(KeepAliveInterval));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(MaxMessageSize, 64, nameof(MaxMessageSize));
        ArgumentOutOfRangeException.ThrowIfLessThan(EventQueueCapacity, 1, nameof(EventQueueCapacity));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxConcurrentIncomingCalls, 1, nameof(MaxConcurrentIncomingCalls));
        if (!Enum.IsDefined(Framing))
        {
            throw new ArgumentOutOfRangeException(nameof(Framing));
        }

        return this;
    }

    private static void ThrowIfNotPositiveOrInfinite(TimeSpan value, string name)
    {
        if (value != Timeout.InfiniteTimeSpan && value <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(name, value, "Must be positive or Timeout.InfiniteTimeSpan.");
        }
    }
}
