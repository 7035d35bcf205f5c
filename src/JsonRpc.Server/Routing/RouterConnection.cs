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
    private string? _name;

    // For a connection that answers what it was sent and then closes (an HTTP request): once its input has ended,
    // completed when the last call it made is answered, or when it closes.
    private readonly bool _answerThenClose;
    private readonly Security.TransportIdentity? _transportIdentity;
    private TaskCompletionSource? _answered;

    /// <param name="router">The router.</param>
    /// <param name="transport">The pipes to the client.</param>
    /// <param name="connectionId">For logs.</param>
    /// <param name="remoteEndPoint">For logs.</param>
    /// <param name="abort">Tears the transport down at once.</param>
    /// <param name="framer">The transport's framing; null to detect it from the first bytes.</param>
    /// <param name="answerThenClose">
    /// When the input ends, wait until every call the client made is answered before closing (instead of at once).
    /// </param>
    /// <param name="identity">What the transport proved about the client (a bearer header, a certificate), if anything.</param>
    public RouterConnection(JsonRpcRouter router, IDuplexPipe transport, string connectionId, string? remoteEndPoint, Action? abort,
        IJsonRpcFramer? framer = null, bool answerThenClose = false, Security.TransportIdentity? identity = null)
    {
        _transportIdentity = identity;
        _framer = framer;
        _answerThenClose = answerThenClose;
        _router = router;
        _transport = transport;
        _abort = abort;
        _logger = router.Logger;
        _outbound = new OutboundQueue(router.Options.MaxOutboundBufferSize, router.Memory);
        Ledger = new MemoryLedger(router.Memory, _outbound);
        ConnectionId = connectionId;
        RemoteEndPoint = remoteEndPoint;
        OpenedAt = _lastActivity = Environment.TickCount64;
    }

    public string ConnectionId { get; }

    /// <summary>The buffers held for this client (outbound queue, batch replies), within one bound.</summary>
    internal MemoryLedger Ledger { get; }

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

    /// <summary>
    /// Runs the connection until it ends, then unregisters it and fails the calls that were waiting on it.
    /// Returns why it ended.
    /// </summary>
    public async Task<CloseReason> RunAsync()
    {
        RouterLog.ConnectionOpened(_logger, ConnectionId, RemoteEndPoint ?? (IsPeer ? "the cluster (a node's link through NATS)" : "this process (an in-memory pipe)"));
        var writing = WriteLoopAsync();
        try
        {
            await ServeAddressPenaltyAsync().ConfigureAwait(false);
            if (_transportIdentity is null || SignInFromTransport(_transportIdentity))
            {
                await ReadLoopAsync().ConfigureAwait(false);
            }

            if (_answerThenClose)
            {
                await WaitForAnswersAsync().ConfigureAwait(false);
            }
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
            NoteMisbehaviour(reason);
            _router.Unregister(this);
            EndStreams();
            ChargePartialMessage(0);
            SignOut();
            CancelHostCalls();
            if (PendingAsCaller > 0)
            {
                // Nobody waits for these answers any more: providers still working on them are told to stop.
                CancelRoutedCalls(RequestId.None);
            }

            FailInFlight(close: true, shuttingDown: reason == CloseReason.ShuttingDown);
            _outbound.Complete(discard: reason == CloseReason.OutboundLimitExceeded);
            await DrainAsync(writing).ConfigureAwait(false);
            _outbound.Complete(discard: true); // what a writer cut off left behind leaves the budget
            Ledger.Close();
            await _transport.Input.CompleteAsync().ConfigureAwait(false);
            await _transport.Output.CompleteAsync().ConfigureAwait(false);
            RouterLog.ConnectionClosed(_logger, ConnectionId, Name ?? "unregistered", reason);
        }

        return Reason;
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

        Volatile.Read(ref _answered)?.TrySetResult();
        if (reason == CloseReason.OutboundLimitExceeded)
        {
            RouterLog.OutboundLimitExceeded(_logger, ConnectionId, Name ?? "unregistered", _router.Options.MaxOutboundBufferSize);
            _outbound.Complete(discard: true);
            _transport.Output.CancelPendingFlush();
            _abort?.Invoke();
        }

        _transport.Input.CancelPendingRead();
    }

    /// <summary>
    /// After the input ended (no call can start any more): waits until every call this connection made has been
    /// answered, each within the call timeout, or the connection closes.
    /// </summary>
    private Task WaitForAnswersAsync()
    {
        var answered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        // A full fence: the last answer either sees the source published, or this sees its count reach zero.
        Interlocked.Exchange(ref _answered, answered);
        return IsClosing || PendingAsCaller == 0 ? Task.CompletedTask : answered.Task;
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
