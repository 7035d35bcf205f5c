using JsonRpc.Client.Internal;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace JsonRpc.Client;

/// <summary>
/// A JSON-RPC 2.0 client over one TCP (optionally TLS) connection or one WebSocket (ws://, wss://) to a JsonRpc router
/// or any JSON-RPC server: calls
/// and notifications from any number of threads at once, batches, methods it serves to others, events, and a
/// connection that keeps itself alive and comes back after a loss.
/// </summary>
/// <remarks>
/// <para>
/// Thread-safe. Answers are matched to calls by id through a lock-free table; outgoing messages are serialized on the
/// calling thread and share socket writes. Exceptions a call can end with: <see cref="JsonRpcRemoteException"/> (the
/// peer answered with an error), <see cref="TimeoutException"/> (no answer within
/// <see cref="JsonRpcClientOptions.CallTimeout"/>), <see cref="OperationCanceledException"/> (the caller's token), and
/// <see cref="JsonRpcConnectionLostException"/> (the connection broke first; every pending call fails at once). A
/// timed-out or canceled call's late answer is dropped. After disposal calls throw <see cref="ObjectDisposedException"/>.
/// </para>
/// </remarks>
public sealed partial class JsonRpcClient : IAsyncDisposable, IDisposable, IConnectionOwner
{
    private static readonly TimeSpan MaxTick = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan MinTick = TimeSpan.FromMilliseconds(10);

    private readonly JsonRpcClientOptions _options;
    private readonly ILogger _logger;
    private readonly PendingCallTable _calls = new();
    private readonly Lock _stateLock = new();
    private readonly CancellationTokenSource _disposing = new();
    private readonly long _callTimeoutMs;
    private readonly long _keepAliveMs;
    private readonly Timer? _timer;
    private ClientConnection? _connection;
    private TaskCompletionSource<ClientConnection> _connected = NewConnectedSource();
    private JsonRpcClientState _state = JsonRpcClientState.Connecting;
    private Task _reconnecting = Task.CompletedTask;
    private int _ticking;
    private int _keepAliveInFlight;
    private long _droppedAnswers;

    private JsonRpcClient(Uri uri, string host, JsonRpcClientOptions options)
    {
        Uri = uri;
        Host = host;
        Port = uri.Port;
        _options = options;
        _logger = options.LoggerFactory?.CreateLogger<JsonRpcClient>() ?? NullLogger<JsonRpcClient>.Instance;
        _callTimeoutMs = options.CallTimeout == Timeout.InfiniteTimeSpan ? -1 : (long)options.CallTimeout.TotalMilliseconds;
        _keepAliveMs = options.KeepAliveInterval == Timeout.InfiniteTimeSpan || options.KeepAliveInterval == TimeSpan.Zero
            ? -1
            : (long)options.KeepAliveInterval.TotalMilliseconds;
        var tick = GetTick(options);
        if (tick != Timeout.InfiniteTimeSpan)
        {
            _timer = new Timer(static state => ((JsonRpcClient)state!).OnTick(), this, tick, tick);
        }
    }

    /// <summary>Raised after <see cref="State"/> changes, on the thread that changed it. Handlers must not block.</summary>
    public event EventHandler<JsonRpcClientStateChangedEventArgs>? StateChanged;

    /// <summary>
    /// Where this client connects: <c>tcp://host:port</c> (also for <see cref="ConnectAsync(string, int, JsonRpcClientOptions?, CancellationToken)"/>),
    /// <c>ws://…</c> or <c>wss://…</c>.
    /// </summary>
    public Uri Uri { get; }

    /// <summary>The host this client connects to.</summary>
    public string Host { get; }

    /// <summary>The port this client connects to.</summary>
    public int Port { get; }

    /// <summary>Where the connection stands now.</summary>
    public JsonRpcClientState State
    {
        get
        {
            lock (_stateLock)
            {
                return _state;
            }
        }
    }

    /// <summary>Answers that arrived for no waiting call (late answers of timed-out or canceled calls), since the start.</summary>
    public long DroppedAnswers => Interlocked.Read(ref _droppedAnswers);

    private bool IsWebSocket => Uri.Scheme is "ws" or "wss";

    private string EndPoint => IsWebSocket ? Uri.ToString() : $"{Host}:{Port}";

    /// <summary>
    /// Opens a connection to a JSON-RPC server or router at <paramref name="host"/>:<paramref name="port"/>.
    /// </summary>
    /// <param name="host">A host name or IP address.</param>
    /// <param name="port">The TCP port.</param>
    /// <param name="options">Settings; null for the defaults.</param>
    /// <param name="cancellationToken">Cancels the connect.</param>
    /// <returns>The connected client; dispose it to close the connection.</returns>
    /// <exception cref="System.Net.Sockets.SocketException">The connection was refused or the host not found.</exception>
    /// <exception cref="TimeoutException">Connecting took longer than <see cref="JsonRpcClientOptions.ConnectTimeout"/>.</exception>
    /// <exception cref="System.Security.Authentication.AuthenticationException">The TLS handshake failed.</exception>
    public static Task<JsonRpcClient> ConnectAsync(
        string host, int port, JsonRpcClientOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(host);
        ArgumentOutOfRangeException.ThrowIfNegative(port);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(port, 65535);
        var authority = host.Contains(':', StringComparison.Ordinal) && !host.StartsWith('[') ? $"[{host}]" : host;
        if (!Uri.TryCreate($"tcp://{authority}:{port.ToString(System.Globalization.CultureInfo.InvariantCulture)}", UriKind.Absolute, out var uri))
        {
            throw new ArgumentException($"'{host}' is not a host name or IP address.", nameof(host));
        }

        return ConnectCoreAsync(uri, host, options, cancellationToken);
    }

    /// <summary>
    /// Opens a connection to a JSON-RPC server or router at <paramref name="uri"/>: <c>tcp://host:port</c> (raw
    /// TCP, TLS with <see cref="JsonRpcClientOptions.Tls"/>), or a WebSocket, <c>ws://host:port/rpc</c> or
    /// <c>wss://host:port/rpc</c> (the router's <c>MapJsonRpcRouter</c> endpoint), with one message per text message.
    /// The API and features are the same whichever it is: calls, batches, served methods, events, keep-alive, reconnect.
    /// </summary>
    /// <param name="uri">Where to connect.</param>
    /// <param name="options">
    /// Settings; null for the defaults. Over a WebSocket <see cref="JsonRpcClientOptions.Framing"/> does not apply (the
    /// WebSocket frames each message), and <see cref="JsonRpcClientOptions.Tls"/> gives wss:// its certificate check
    /// and client certificates.
    /// </param>
    /// <param name="cancellationToken">Cancels the connect.</param>
    /// <returns>The connected client; dispose it to close the connection.</returns>
    /// <exception cref="ArgumentException">The scheme is not tcp, ws or wss, or a tcp:// address has no port.</exception>
    /// <exception cref="System.Net.Sockets.SocketException">The connection was refused or the host not found.</exception>
    /// <exception cref="IOException">The WebSocket handshake failed (for instance, no WebSocket endpoint at that path).</exception>
    /// <exception cref="TimeoutException">Connecting took longer than <see cref="JsonRpcClientOptions.ConnectTimeout"/>.</exception>
    public static Task<JsonRpcClient> ConnectAsync(Uri uri, JsonRpcClientOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(uri);
        if (!uri.IsAbsoluteUri || uri.Scheme is not ("tcp" or "ws" or "wss"))
        {
            throw new ArgumentException($"'{uri}' is not a tcp://host:port, ws:// or wss:// address.", nameof(uri));
        }

        if (uri.Scheme == "tcp" && uri.Port is < 0 or 0)
        {
            throw new ArgumentException($"'{uri}' has no port: write tcp://host:port.", nameof(uri));
        }

        return ConnectCoreAsync(uri, uri.IdnHost.Trim('[', ']'), options, cancellationToken);
    }

    private static async Task<JsonRpcClient> ConnectCoreAsync(Uri uri, string host, JsonRpcClientOptions? options, CancellationToken cancellationToken)
    {
        var client = new JsonRpcClient(uri, host, (options ?? new JsonRpcClientOptions()).Snapshot().Validate());
        try
        {
            var connection = await client.OpenAsync(cancellationToken).ConfigureAwait(false);
            await client.AuthenticateAsync(connection, cancellationToken).ConfigureAwait(false);
            if (!client.SetConnected(connection))
            {
                throw new JsonRpcConnectionLostException($"The connection to {client.EndPoint} closed at once.", connection.CloseReason);
            }

            return client;
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Closes the connection and stops reconnecting. Pending calls fail with <see cref="ObjectDisposedException"/>;
    /// later calls throw it.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        ClientConnection? connection;
        JsonRpcClientState old;
        lock (_stateLock)
        {
            if (_state == JsonRpcClientState.Disposed)
            {
                return;
            }

            old = _state;
            _state = JsonRpcClientState.Disposed;
            connection = _connection;
            _connection = null;
            // Waiters for a connection wake up and see the Disposed state.
            if (_connected.TrySetException(new ObjectDisposedException(nameof(JsonRpcClient))))
            {
                _ = _connected.Task.Exception; // observed
            }
        }

        RaiseStateChanged(old, JsonRpcClientState.Disposed, null);
        _disposing.Cancel();
        if (_timer is not null)
        {
            await _timer.DisposeAsync().ConfigureAwait(false);
        }

        _calls.ClaimAll(null, static (call, _) => call.SetFailure(CallOutcome.Failed, new ObjectDisposedException(nameof(JsonRpcClient), $"The client was disposed before '{call.Method}' was answered.")), 0);
        if (connection is not null)
        {
            await connection.DisposeAsync().ConfigureAwait(false);
        }

        try
        {
            await _reconnecting.ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // The reconnect loop stops by cancellation.
        }

        await StopEventQueuesAsync().ConfigureAwait(false);
        await StopContractEventsAsync().ConfigureAwait(false);
    }

    /// <summary>Closes the connection, blocking until it is closed; prefer <see cref="DisposeAsync"/>.</summary>
    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();

    void IConnectionOwner.OnClosed(ClientConnection connection, Exception reason)
    {
        // The state changes (and StateChanged is raised) before the calls fail, so that a caller whose call failed with
        // the connection finds the client already Disconnected or Reconnecting. A connection that is not the current one
        // (being opened or restored) changes no state: its opener sees the failure.
        var current = TryLeave(connection, reason, out var old, out var now);
        if (current)
        {
            RaiseStateChanged(old, now, reason);
        }

        var failed = _calls.ClaimAll(connection, static (call, reason) => call.SetFailure(CallOutcome.ConnectionLost, reason), reason);
        DisposeGenerators();
        if (current)
        {
            Log.ConnectionLost(_logger, EndPoint, failed, reason);
            _ = Task.Run(async () => await connection.DisposeAsync().ConfigureAwait(false));
        }
    }

    /// <summary>Moves the client off <paramref name="connection"/> if it is the current one (to Reconnecting or Disconnected).</summary>
    private bool TryLeave(ClientConnection connection, Exception reason, out JsonRpcClientState old, out JsonRpcClientState now)
    {
        lock (_stateLock)
        {
            old = now = _state;
            if (!ReferenceEquals(_connection, connection))
            {
                return false;
            }

            _connection = null;
            _connected = NewConnectedSource();
            if (_options.Reconnect.Enabled)
            {
                now = _state = JsonRpcClientState.Reconnecting;
                _reconnecting = Task.Run(() => ReconnectAsync(reason));
            }
            else
            {
                now = _state = JsonRpcClientState.Disconnected;
                _connected.SetException(new JsonRpcConnectionLostException($"The connection to {EndPoint} was lost and reconnect is off.", reason));
                _ = _connected.Task.Exception;
            }

            return true;
        }
    }

    private static TaskCompletionSource<ClientConnection> NewConnectedSource()
        => new(TaskCreationOptions.RunContinuationsAsynchronously);

    private static TimeSpan GetTick(JsonRpcClientOptions options)
    {
        var tick = Timeout.InfiniteTimeSpan;
        if (options.CallTimeout != Timeout.InfiniteTimeSpan)
        {
            tick = options.CallTimeout / 8;
        }

        if (options.KeepAliveInterval != Timeout.InfiniteTimeSpan && options.KeepAliveInterval > TimeSpan.Zero)
        {
            var keepAliveTick = options.KeepAliveInterval / 4;
            tick = tick == Timeout.InfiniteTimeSpan || keepAliveTick < tick ? keepAliveTick : tick;
        }

        return tick == Timeout.InfiniteTimeSpan ? tick : TimeSpan.FromTicks(Math.Clamp(tick.Ticks, MinTick.Ticks, MaxTick.Ticks));
    }

    private async Task<ClientConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = IsWebSocket
            ? await ClientConnection.ConnectWebSocketAsync(Uri, _options, CreateLineFramer, cancellationToken).ConfigureAwait(false)
            : await ClientConnection.ConnectAsync(Host, Port, _options, CreateFramer, cancellationToken).ConfigureAwait(false);
        connection.Start(this);
        return connection;
    }

    private IJsonRpcFramer CreateFramer() => _options.Framing == JsonRpcClientFraming.ContentLength
        ? new ContentLengthFramer(_options.MaxMessageSize)
        : CreateLineFramer();

    // Over a WebSocket: the stream adapter turns each text message into one line and each line into one message.
    private IJsonRpcFramer CreateLineFramer() => new NewlineDelimitedFramer(_options.MaxMessageSize);

    /// <summary>Makes <paramref name="connection"/> the current one, unless it already closed or the client was disposed.</summary>
    private bool SetConnected(ClientConnection connection)
    {
        JsonRpcClientState old;
        lock (_stateLock)
        {
            if (connection.IsClosed || _state == JsonRpcClientState.Disposed)
            {
                return false;
            }

            old = _state;
            _state = JsonRpcClientState.Connected;
            _connection = connection;
            _connected.TrySetResult(connection);
        }

        Log.Connected(_logger, EndPoint);
        RaiseStateChanged(old, JsonRpcClientState.Connected, null);
        return true;
    }

    private void RaiseStateChanged(JsonRpcClientState old, JsonRpcClientState now, Exception? exception)
    {
        if (old == now || StateChanged is not { } handler)
        {
            return;
        }

        try
        {
            handler(this, new JsonRpcClientStateChangedEventArgs(old, now, exception));
        }
        catch (Exception ex)
        {
            Log.StateHandlerFailed(_logger, ex);
        }
    }

    private void OnTick()
    {
        if (Interlocked.Exchange(ref _ticking, 1) != 0)
        {
            return;
        }

        try
        {
            var now = Environment.TickCount64;
            if (_callTimeoutMs >= 0)
            {
                _calls.ClaimExpired(now, static (call, _) => call.SetFailure(CallOutcome.TimedOut, null), 0);
            }

            if (_keepAliveMs > 0
                && Volatile.Read(ref _connection) is { IsClosed: false } connection
                && now - connection.LastWriteTicks >= _keepAliveMs
                && Interlocked.CompareExchange(ref _keepAliveInFlight, 1, 0) == 0)
            {
                _ = KeepAliveAsync(connection);
            }
        }
        finally
        {
            Volatile.Write(ref _ticking, 0);
        }
    }

    private async Task KeepAliveAsync(ClientConnection connection)
    {
        try
        {
            // Bounded by the call timeout like any call (with none, by a minute), never by the interval: a busy peer
            // may take longer than a short interval to answer and is not dead for that.
            using var timeout = new CancellationTokenSource(_callTimeoutMs >= 0 ? TimeSpan.FromMilliseconds(_callTimeoutMs) : TimeSpan.FromMinutes(1));
            await InvokeCoreAsync<RawParams, bool, IgnoredResult>(connection, RouterWire.KeepAlive, default, default, timeout.Token)
                .ConfigureAwait(false);
        }
        catch (JsonRpcRemoteException)
        {
            // Any answer, an error included (a plain server without keepAlive), proves the connection alive.
        }
        catch (Exception ex) when (ex is TimeoutException or OperationCanceledException && !_disposing.IsCancellationRequested)
        {
            Log.KeepAliveFailed(_logger, connection.EndPoint);
            connection.Close(new TimeoutException($"{connection.EndPoint} did not answer a keep-alive."));
        }
        catch (Exception)
        {
            // Connection lost or client disposed: handled where that happens.
        }
        finally
        {
            Volatile.Write(ref _keepAliveInFlight, 0);
        }
    }
}
