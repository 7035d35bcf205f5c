using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.IO.Pipelines;
using System.Security.Cryptography;
using System.Text;
using JsonRpc.Buffers;
using JsonRpc.Dispatch;
using JsonRpc.Framing;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.Routing;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace JsonRpc.Server;

/// <summary>
/// The JSON-RPC 2.0 router: clients register themselves and the methods they provide, call each other's methods
/// through it, and publish and subscribe to events; the host can add methods of its own. Transport-agnostic: serve it
/// on Kestrel with <c>listenOptions.UseJsonRpcRouter()</c>, or hand it any <see cref="IDuplexPipe"/> with
/// <see cref="RunConnectionAsync(IDuplexPipe, string?, CancellationToken)"/>.
/// </summary>
public sealed partial class JsonRpcRouter : IAsyncDisposable, IDisposable
{
    private readonly RouterMetrics _metrics;
    private readonly byte[]? _accessTokenHash;
    private readonly ConcurrentDictionary<RouterConnection, byte> _connections = new();
    private int _connectionIds;

    /// <summary>Creates a router with the given settings.</summary>
    /// <exception cref="OptionsValidationException">A setting cannot work; the message says which.</exception>
    public JsonRpcRouter(IOptions<JsonRpcRouterOptions> options, ILoggerFactory? loggerFactory = null, IMeterFactory? meterFactory = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        Options = options.Value;
        var validation = new JsonRpcRouterOptionsValidator().Validate(Microsoft.Extensions.Options.Options.DefaultName, Options);
        if (validation.Failed)
        {
            throw new OptionsValidationException(Microsoft.Extensions.Options.Options.DefaultName, typeof(JsonRpcRouterOptions), validation.Failures);
        }

        Logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger<JsonRpcRouter>();

        // A security configuration that cannot work stops the router here, with every bad entry named.
        _security = JsonRpc.Server.Security.SecurityPolicy.Create(Options.Security, Options.AccessToken, IdentityStateFor);
        WarnAboutJwt(Options.Security);
        Audit = new JsonRpc.Server.Security.RefusalAudit(Logger);
        Memory = new MemoryBudget(Options.MaxMemory ?? MemoryBudget.DefaultMax());
        Penalties = new AddressPenalties(Options.MaxPenaltyDelay);
        _metrics = new RouterMetrics(Counters, meterFactory, this);
        DefaultFramer = new NewlineDelimitedFramer(Options.MaxMessageSize);
        Methods = new JsonRpcDispatcher(new JsonRpcDispatcherOptions { MaxDepth = Options.MaxDepth, EnumeratorPrefetch = Options.HostEnumeratorPrefetch });
        Methods.AttachPeer(new HostEventPublisher(this)); // for the router's lifetime: host targets' events are published
        if (Options.AccessToken is { } token)
        {
            _accessTokenHash = SHA256.HashData(Encoding.UTF8.GetBytes(token));
        }


        _timer = StartTimer();
    }

    /// <summary>The settings in force. Read as the router runs: change them only before it serves connections.</summary>
    public JsonRpcRouterOptions Options { get; }

    internal ILogger Logger { get; }

    internal RouterCounters Counters { get; } = new();

    /// <summary>
    /// Sends an event to <paramref name="subscribers"/>, each its own copy, and counts it: not back to its
    /// <paramref name="sender"/> or to the <paramref name="provider"/> that got it as a notification, and, from another
    /// cluster node, to this node's clients only (every node got it at once). Returns how many it reached.
    /// </summary>
    internal int Publish(ReadOnlySpan<byte> message, RouterConnection[] subscribers, RouterConnection? sender, RouterConnection? provider)
    {
        if (subscribers.Length == 0)
        {
            return 0;
        }

        var fromPeer = sender is { IsPeer: true };
        Interlocked.Increment(ref Counters.EventsPublished);
        var delivered = 0;
        foreach (var subscriber in subscribers)
        {
            if (subscriber != sender && subscriber != provider && !(fromPeer && subscriber.IsPeer) && subscriber.Send(RouterProtocol.ReplyWriter.Copy(message)))
            {
                delivered++;
            }
        }

        Interlocked.Add(ref Counters.EventsDelivered, delivered);
        return delivered;
    }

    /// <summary>The buffers held for all clients, against <see cref="JsonRpcRouterOptions.MaxMemory"/>.</summary>
    internal MemoryBudget Memory { get; }

    /// <summary>The Kestrel endpoints served with <c>UseJsonRpcRouter</c>, for the line that says where the router listens.</summary>
    internal List<Microsoft.AspNetCore.Server.Kestrel.Core.ListenOptions> RawEndpoints { get; } = [];

    /// <summary>Where <c>ListenJsonRpcRouter</c> put the router, when it did.</summary>
    internal JsonRpcRouterListeners? Listeners { get; set; }

    /// <summary>Where HTTP is served, in a sentence, for a client that sent an HTTP request to the raw TCP port.</summary>
    internal string HttpEndpointHint => Listeners is { Http: { } http } listeners
        ? $"HTTP is served at {(listeners.Tls ? "https" : "http")}://{http}/rpc (POST, or WebSocket at {(listeners.Tls ? "wss" : "ws")}://{http}/rpc)."
        : Options.HttpPort is > 0
            ? $"HTTP is served on port {Options.HttpPort} at /rpc (POST and WebSocket)."
            : "HTTP is served only where the host maps it (the standalone router: start it with --http_port <port> for /rpc).";

    /// <summary>Addresses whose connections were closed for misbehaviour, and how long their new ones wait.</summary>
    internal AddressPenalties Penalties { get; }

    internal IJsonRpcFramer DefaultFramer { get; }

    /// <summary>Everything routed by name: methods and their providers, events and their subscribers.</summary>
    internal Utf8Map<RouteEntry> Routes { get; } = new();

    /// <summary>A snapshot of the router's counters, the same that <c>get_server_stats</c> returns.</summary>
    public JsonRpcRouterStats GetStats() => Counters.Snapshot();

    /// <summary>
    /// Serves one client over <paramref name="transport"/> until either side closes it or
    /// <paramref name="cancellationToken"/> is cancelled; then completes both ends of the pipe.
    /// </summary>
    public async Task RunConnectionAsync(IDuplexPipe transport, string? connectionId = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(transport);
        RouterConnection? connection = null;
        await using var registration = cancellationToken.Register(() => Volatile.Read(ref connection)?.Close(CloseReason.ShuttingDown)).ConfigureAwait(false);
        await RunConnectionAsync(transport, connectionId, null, null, c => Volatile.Write(ref connection, c)).ConfigureAwait(false);
    }

    /// <summary>
    /// Serves one client; <paramref name="abort"/> tears the transport down at once (Kestrel's Abort). A message
    /// transport passes its <paramref name="framer"/>; an HTTP request asks to <paramref name="answerThenClose"/>.
    /// Returns why the connection ended.
    /// </summary>
    internal async Task<CloseReason> RunConnectionAsync(IDuplexPipe transport, string? connectionId, string? remoteEndPoint, Action? abort,
        Action<RouterConnection>? started = null, IJsonRpcFramer? framer = null, bool answerThenClose = false,
        Security.TransportIdentity? identity = null)
    {
        connectionId ??= "router-" + Interlocked.Increment(ref _connectionIds).ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (Interlocked.Increment(ref Counters.Connections) > Options.MaxConnections || IsShuttingDown)
        {
            Interlocked.Decrement(ref Counters.Connections);
            return await RejectAsync(transport, connectionId, framer ?? DefaultFramer).ConfigureAwait(false);
        }

        Interlocked.Increment(ref Counters.ConnectionsTotal);
        var connection = new RouterConnection(this, transport, connectionId, remoteEndPoint, abort, framer, answerThenClose, identity);
        _connections.TryAdd(connection, 0);
        try
        {
            started?.Invoke(connection);
            return await connection.RunAsync().ConfigureAwait(false);
        }
        finally
        {
            _connections.TryRemove(connection, out _);
            Interlocked.Decrement(ref Counters.Connections);
        }
    }

    /// <summary>Answers a connection over the limit (or during shutdown) with an error, then closes it.</summary>
    private async Task<CloseReason> RejectAsync(IDuplexPipe transport, string connectionId, IJsonRpcFramer framer)
    {
        Interlocked.Increment(ref Counters.ConnectionsRejected);
        Interlocked.Increment(ref Counters.Errors);
        var shuttingDown = IsShuttingDown;
        if (!shuttingDown)
        {
            RouterLog.ConnectionRejected(Logger, connectionId, Options.MaxConnections);
        }

        var buffer = new PooledBufferWriter();
        var writer = new System.Text.Json.Utf8JsonWriter(buffer);
        writer.WriteStartObject();
        writer.WriteString("jsonrpc"u8, "2.0"u8);
        writer.WriteNull("id"u8);
        writer.WriteStartObject("error"u8);
        writer.WriteNumber("code"u8, shuttingDown ? RouterErrorCodes.ShuttingDown : RouterErrorCodes.TooManyConnections);
        writer.WriteString("message"u8, shuttingDown ? "Server shutting down" : "Too many connections");
        writer.WriteEndObject();
        writer.WriteEndObject();
        writer.Flush();
        try
        {
            framer.WriteMessage(transport.Output, buffer.WrittenSpan);
            await transport.Output.FlushAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(2)).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is IOException or OperationCanceledException or TimeoutException or InvalidOperationException)
        {
            // The client is gone or not reading: closing is all that is left.
        }
        finally
        {
            buffer.Reset();
            await transport.Input.CompleteAsync().ConfigureAwait(false);
            await transport.Output.CompleteAsync().ConfigureAwait(false);
        }

        return shuttingDown ? CloseReason.ShuttingDown : CloseReason.TooManyConnections;
    }

    /// <summary>Constant-time check of the token a client presented (hashed first, so lengths leak nothing either).</summary>
    internal bool CheckAccessToken(string? token)
    {
        if (_accessTokenHash is null)
        {
            return true;
        }

        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes(token ?? string.Empty), hash);
        return CryptographicOperations.FixedTimeEquals(hash, _accessTokenHash) && token is not null;
    }

    /// <summary>Stops the timer and the metrics. Does not close connections: use <see cref="ShutdownAsync"/> for that.</summary>
    public void Dispose()
    {
        _timer.Dispose();
        DisposeIdentities();
        _metrics.Dispose();
        _stopping.Dispose();
    }

    /// <inheritdoc cref="Dispose"/>
    public async ValueTask DisposeAsync()
    {
        await _timer.DisposeAsync().ConfigureAwait(false);
        DisposeIdentities();
        _metrics.Dispose();
        _stopping.Dispose();
    }
}
