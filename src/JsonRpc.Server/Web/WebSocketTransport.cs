using System.Buffers;
using System.IO.Pipelines;
using System.Net.WebSockets;
using JsonRpc.Server.Diagnostics;

namespace JsonRpc.Server.Web;

/// <summary>
/// Carries one WebSocket as the router's <see cref="IDuplexPipe"/>, so that a WebSocket client is a router connection
/// like any other. Each text message is streamed into the input pipe as it arrives and ended with
/// <see cref="MessageBoundaryFramer.Delimiter"/>: the router's framer sees exact message boundaries and refuses one
/// past <see cref="JsonRpcRouterOptions.MaxMessageSize"/> while it is still arriving. Each framed message the router
/// writes goes out as one text message. Both pipes pause their writers, so nothing here buffers without bound: a
/// client that stops reading stops the send loop, the router's flush waits, and its outbound queue fills until the
/// slow-reader rule drops the client.
/// </summary>
internal sealed class WebSocketTransport : IDuplexPipe
{
    // How long the closing handshake may take before the socket is cut off.
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(2);

    private readonly WebSocket _socket;
    private readonly int _maxMessageSize;
    private readonly Pipe _input;
    private readonly Pipe _output = new(new PipeOptions(useSynchronizationContext: false));
    private WebSocketCloseStatus? _refusal;
    private bool _closeReceived;

    public WebSocketTransport(WebSocket socket, int maxMessageSize)
    {
        _socket = socket;
        _maxMessageSize = maxMessageSize;

        // The router consumes nothing of a message until its delimiter arrives, so the input must hold a whole
        // message of the maximum size (and the first bytes past it, which tell that it is too large) without pausing.
        var pause = maxMessageSize + 64L * 1024;
        _input = new Pipe(new PipeOptions(pauseWriterThreshold: pause, resumeWriterThreshold: pause / 2, useSynchronizationContext: false));
    }

    public PipeReader Input => _input.Reader;

    public PipeWriter Output => _output.Writer;

    /// <summary>
    /// Serves the socket with the router until either side closes it, then ends the closing handshake with a status
    /// that says why (1009 for a message too large, 1003 for a binary message, 1008 for a timeout or a refused token,
    /// 1013 when the router is full, 1001 when it shuts down).
    /// </summary>
    public async Task RunAsync(JsonRpcRouter router, string connectionId, string? remoteEndPoint, Action abortConnection, Security.TransportIdentity? identity = null)
    {
        void Abort()
        {
            _socket.Abort();
            abortConnection();
        }

        var receiving = ReceiveLoopAsync();
        var sending = SendLoopAsync();
        var reason = await router.RunConnectionAsync(this, connectionId, remoteEndPoint, Abort,
            framer: new MessageBoundaryFramer(_maxMessageSize), identity: identity).ConfigureAwait(false);
        await sending.ConfigureAwait(false);
        await CloseAsync(reason, receiving).ConfigureAwait(false);
    }

    private async Task ReceiveLoopAsync()
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            long messageBytes = 0;
            while (true)
            {
                var memory = writer.GetMemory(4096);
                var received = await _socket.ReceiveAsync(memory, CancellationToken.None).ConfigureAwait(false);
                if (received.MessageType == WebSocketMessageType.Close)
                {
                    _closeReceived = true;
                    break;
                }

                if (received.MessageType == WebSocketMessageType.Binary)
                {
                    // The router answers the marker with a parse error and closes; the status says why.
                    _refusal = WebSocketCloseStatus.InvalidMessageType;
                    writer.GetSpan(1)[0] = MessageBoundaryFramer.RefusedMarker;
                    writer.Advance(1);
                    MessageBoundaryFramer.WriteDelimiter(writer);
                    await writer.FlushAsync().ConfigureAwait(false);
                    break;
                }

                writer.Advance(received.Count);
                messageBytes += received.Count;
                if (messageBytes > _maxMessageSize)
                {
                    // The router's framer sees more than the limit without a delimiter and refuses it: read no further.
                    _refusal = WebSocketCloseStatus.MessageTooBig;
                    await writer.FlushAsync().ConfigureAwait(false);
                    break;
                }

                if (received.EndOfMessage)
                {
                    MessageBoundaryFramer.WriteDelimiter(writer);
                    messageBytes = 0;
                }

                var flushed = await writer.FlushAsync().ConfigureAwait(false);
                if (flushed.IsCompleted)
                {
                    break; // the router has stopped reading
                }
            }
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or IOException or ObjectDisposedException)
        {
            error = ex;
        }

        await writer.CompleteAsync(error is null ? null : new IOException("The WebSocket failed.", error)).ConfigureAwait(false);
    }

    private async Task SendLoopAsync()
    {
        var reader = _output.Reader;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync().ConfigureAwait(false);
                var buffer = result.Buffer;
                try
                {
                    while (buffer.PositionOf(MessageBoundaryFramer.Delimiter) is { } end)
                    {
                        await SendMessageAsync(buffer.Slice(0, end)).ConfigureAwait(false);
                        buffer = buffer.Slice(buffer.GetPosition(1, end));
                    }

                    if (result.IsCompleted || result.IsCanceled)
                    {
                        break;
                    }
                }
                finally
                {
                    reader.AdvanceTo(buffer.Start, buffer.End);
                }
            }

            await reader.CompleteAsync().ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or IOException or ObjectDisposedException)
        {
            // The client is gone or was cut off: the router's writer sees the pipe complete and closes.
            await reader.CompleteAsync(ex).ConfigureAwait(false);
        }
    }

    private async ValueTask SendMessageAsync(ReadOnlySequence<byte> message)
    {
        if (message.IsSingleSegment)
        {
            await _socket.SendAsync(message.First, WebSocketMessageType.Text, endOfMessage: true, CancellationToken.None).ConfigureAwait(false);
            return;
        }

        var position = message.Start;
        var remaining = message.Length;
        while (message.TryGet(ref position, out var segment))
        {
            remaining -= segment.Length;
            await _socket.SendAsync(segment, WebSocketMessageType.Text, endOfMessage: remaining == 0, CancellationToken.None).ConfigureAwait(false);
        }
    }

    private async Task CloseAsync(CloseReason reason, Task receiving)
    {
        var (status, description) = _refusal switch
        {
            WebSocketCloseStatus.MessageTooBig => (WebSocketCloseStatus.MessageTooBig, $"Messages are limited to {_maxMessageSize} bytes."),
            WebSocketCloseStatus.InvalidMessageType => (WebSocketCloseStatus.InvalidMessageType, "Only text messages are accepted."),
            _ => StatusFor(reason),
        };

        try
        {
            if (_socket.State is WebSocketState.Open or WebSocketState.CloseReceived)
            {
                using var timeout = new CancellationTokenSource(CloseTimeout);
                await _socket.CloseOutputAsync(status, description, timeout.Token).ConfigureAwait(false);
            }

            // The client answers the close; give it a moment, then cut the socket off.
            await receiving.WaitAsync(CloseTimeout).ConfigureAwait(false);
            if (!_closeReceived && _socket.State == WebSocketState.CloseSent)
            {
                await DiscardUntilCloseAsync().ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or IOException or ObjectDisposedException or TimeoutException)
        {
            _socket.Abort();
        }
    }

    /// <summary>
    /// The receive loop stopped early (a refused message): read and drop whatever the client still sends until its
    /// close, so that it sees our close status rather than a broken connection.
    /// </summary>
    private async Task DiscardUntilCloseAsync()
    {
        using var timeout = new CancellationTokenSource(CloseTimeout);
        var scratch = ArrayPool<byte>.Shared.Rent(4096);
        try
        {
            while ((await _socket.ReceiveAsync(scratch.AsMemory(), timeout.Token).ConfigureAwait(false)).MessageType != WebSocketMessageType.Close)
            {
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }

    private (WebSocketCloseStatus Status, string Description) StatusFor(CloseReason reason) => reason switch
    {
        CloseReason.MessageTooLarge => (WebSocketCloseStatus.MessageTooBig, $"Messages are limited to {_maxMessageSize} bytes."),
        CloseReason.InvalidFraming => (WebSocketCloseStatus.InvalidMessageType, "Only text messages are accepted."),
        CloseReason.ClosedMidMessage => (WebSocketCloseStatus.ProtocolError, "The connection ended inside a message."),
        CloseReason.IdleTimeout => (WebSocketCloseStatus.PolicyViolation, "Idle timeout."),
        CloseReason.MessageTimeout => (WebSocketCloseStatus.PolicyViolation, "Message timeout."),
        CloseReason.RegistrationTimeout => (WebSocketCloseStatus.PolicyViolation, "Registration timeout."),
        CloseReason.AccessDenied => (WebSocketCloseStatus.PolicyViolation, "Access denied."),
        CloseReason.TooManyConnections => ((WebSocketCloseStatus)1013, "Too many connections; try again later."),
        CloseReason.ShuttingDown => (WebSocketCloseStatus.EndpointUnavailable, "Server shutting down."),
        CloseReason.OutboundLimitExceeded => (WebSocketCloseStatus.PolicyViolation, "The client fell too far behind in reading."),
        CloseReason.TransportError => (WebSocketCloseStatus.InternalServerError, "Transport error."),
        _ => (WebSocketCloseStatus.NormalClosure, string.Empty),
    };
}
