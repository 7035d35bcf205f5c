using System.IO.Pipelines;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Routing;

/// <summary>
/// One client of the router over any <see cref="IDuplexPipe"/>: a read loop that parses and routes each message as it
/// arrives, and one writer loop that drains the connection's <see cref="OutboundQueue"/> into the pipe and flushes
/// once per batch of queued messages. The connection is at once a caller (its calls wait in providers' tables) and a
/// provider (calls routed to it wait in its own in-flight table).
/// </summary>
internal sealed partial class RouterConnection
{
    // How long a closing connection may take to flush what is queued before it is cut off.
    private static readonly TimeSpan DrainTimeout = TimeSpan.FromSeconds(2);

    private readonly JsonRpcRouter _router;
    private readonly IDuplexPipe _transport;
    private readonly Action? _abort;
    private readonly OutboundQueue _outbound;
    private readonly ILogger _logger;
    private volatile IJsonRpcFramer? _framer;
    private int _closeReason;
    private long _lastActivity;
    private int _pendingAsCaller;
    private string? _name;

    public RouterConnection(JsonRpcRouter router, IDuplexPipe transport, string connectionId, string? remoteEndPoint, Action? abort)
    {
        _router = router;
        _transport = transport;
        _abort = abort;
        _logger = router.Logger;
        _outbound = new OutboundQueue(router.Options.MaxOutboundBufferSize);
        ConnectionId = connectionId;
        RemoteEndPoint = remoteEndPoint;
        OpenedAt = _lastActivity = Environment.TickCount64;
    }

    public string ConnectionId { get; }

    public string? RemoteEndPoint { get; }

    /// <summary>When the connection opened (<see cref="Environment.TickCount64"/>).</summary>
    public long OpenedAt { get; }

    /// <summary>When the connection last sent anything.</summary>
    public long LastActivity => Volatile.Read(ref _lastActivity);

    /// <summary>The name given by <c>register_client</c>, or null.</summary>
    public string? Name => Volatile.Read(ref _name);

    /// <summary>Routes this client provides (guarded by the router's registry lock).</summary>
    internal List<RouteEntry> Provided { get; } = [];

    /// <summary>Events this client subscribed to (guarded by the router's registry lock).</summary>
    internal List<RouteEntry> Subscribed { get; } = [];

    public bool IsClosing => Volatile.Read(ref _closeReason) != 0;

    private CloseReason Reason => (CloseReason)Volatile.Read(ref _closeReason);

    /// <summary>Set by the router under its registry lock.</summary>
    internal void SetName(string name) => Volatile.Write(ref _name, name);

    /// <summary>Runs the connection until it ends, then unregisters it and fails the calls that were waiting on it.</summary>
    public async Task RunAsync()
    {
        RouterLog.ConnectionOpened(_logger, ConnectionId, RemoteEndPoint);
        var writing = WriteLoopAsync();
        try
        {
            await ReadLoopAsync().ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is IOException or OperationCanceledException or ObjectDisposedException)
        {
            Close(CloseReason.TransportError);
        }
        catch (Exception ex)
        {
            RouterLog.ConnectionFailed(_logger, ConnectionId, ex);
            Close(CloseReason.TransportError);
        }
        finally
        {
            Close(CloseReason.ClientClosed);
            var reason = Reason;
            _router.Unregister(this);
            CancelServerCalls();
            if (PendingAsCaller > 0)
            {
                // Nobody waits for these answers any more: providers still working on them are told to stop.
                CancelRoutedCalls(RequestId.None);
            }

            FailInFlight(close: true, shuttingDown: reason == CloseReason.ShuttingDown);
            _outbound.Complete(discard: reason == CloseReason.OutboundLimitExceeded);
            await DrainAsync(writing).ConfigureAwait(false);
            await _transport.Input.CompleteAsync().ConfigureAwait(false);
            await _transport.Output.CompleteAsync().ConfigureAwait(false);
            RouterLog.ConnectionClosed(_logger, ConnectionId, Name ?? "unregistered", reason);
        }
    }

    /// <summary>
    /// Ends the connection: the read loop stops and, unless the client stopped reading, what is queued is still sent.
    /// The first reason given wins. Safe from any thread.
    /// </summary>
    public void Close(CloseReason reason)
    {
        if (Interlocked.CompareExchange(ref _closeReason, (int)reason, 0) != 0)
        {
            return;
        }

        if (reason == CloseReason.OutboundLimitExceeded)
        {
            RouterLog.OutboundLimitExceeded(_logger, ConnectionId, Name, _router.Options.MaxOutboundBufferSize);
            _outbound.Complete(discard: true);
            _transport.Output.CancelPendingFlush();
            _abort?.Invoke();
        }

        _transport.Input.CancelPendingRead();
    }

    private async Task DrainAsync(Task writing)
    {
        if (!writing.IsCompleted)
        {
            try
            {
                await writing.WaitAsync(DrainTimeout).ConfigureAwait(false);
                return;
            }
            catch (TimeoutException)
            {
                // The client is not reading: cut it off rather than hold the connection open.
                _transport.Output.CancelPendingFlush();
                _abort?.Invoke();
            }
        }

        await writing.ConfigureAwait(false);
    }
}
