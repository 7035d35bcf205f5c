using System.Net.WebSockets;

namespace JsonRpc.Client.Internal;

/// <summary>
/// A WebSocket seen as the byte stream the client's connection reads and writes with newline-delimited framing:
/// each text message received reads as its bytes and a <c>\n</c>; each line written goes out as one text message
/// (sent in pieces as the bytes come, so nothing is buffered here). The client writes compact JSON, in which a raw
/// line feed only ever ends a message; the router's messages are one per WebSocket message, raw newlines included,
/// and arrive with any raw CR or LF inside them turned into spaces (the newline framer's rule for a line).
/// </summary>
internal sealed class WebSocketLineStream(WebSocket socket) : Stream
{
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(2);

    // A message ended exactly at the end of the caller's buffer: its terminator is owed on the next read.
    private bool _newlineOwed;

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (buffer.IsEmpty)
        {
            return 0;
        }

        if (_newlineOwed)
        {
            _newlineOwed = false;
            buffer.Span[0] = (byte)'\n';
            return 1;
        }

        while (true)
        {
            ValueWebSocketReceiveResult result;
            try
            {
                result = await socket.ReceiveAsync(buffer, cancellationToken).ConfigureAwait(false);
            }
            catch (WebSocketException ex)
            {
                throw new IOException("The WebSocket failed: " + ex.Message, ex);
            }

            if (result.MessageType == WebSocketMessageType.Close)
            {
                await CloseOutputAsync(WebSocketCloseStatus.NormalClosure).ConfigureAwait(false);
                return 0; // end of stream
            }

            if (result.MessageType == WebSocketMessageType.Binary)
            {
                throw new IOException("The server sent a binary WebSocket message; JSON-RPC goes as text.");
            }

            var span = buffer.Span[..result.Count];
            if (span.IndexOfAny((byte)'\r', (byte)'\n') >= 0)
            {
                span.Replace((byte)'\r', (byte)' ');
                span.Replace((byte)'\n', (byte)' ');
            }

            if (!result.EndOfMessage)
            {
                if (result.Count > 0)
                {
                    return result.Count;
                }

                continue;
            }

            if (result.Count < buffer.Length)
            {
                buffer.Span[result.Count] = (byte)'\n';
                return result.Count + 1;
            }

            _newlineOwed = true;
            return result.Count;
        }
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        try
        {
            while (!buffer.IsEmpty)
            {
                var newline = buffer.Span.IndexOf((byte)'\n');
                if (newline < 0)
                {
                    await socket.SendAsync(buffer, WebSocketMessageType.Text, endOfMessage: false, cancellationToken).ConfigureAwait(false);
                    return;
                }

                await socket.SendAsync(buffer[..newline], WebSocketMessageType.Text, endOfMessage: true, cancellationToken).ConfigureAwait(false);
                buffer = buffer[(newline + 1)..];
            }
        }
        catch (WebSocketException ex)
        {
            throw new IOException("The WebSocket failed: " + ex.Message, ex);
        }
    }

    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override void Flush()
    {
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count).GetAwaiter().GetResult();

    public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer, offset, count).GetAwaiter().GetResult();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override async ValueTask DisposeAsync()
    {
        await CloseOutputAsync(WebSocketCloseStatus.NormalClosure).ConfigureAwait(false);
        socket.Dispose();
        await base.DisposeAsync().ConfigureAwait(false);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            socket.Dispose();
        }

        base.Dispose(disposing);
    }

    private async ValueTask CloseOutputAsync(WebSocketCloseStatus status)
    {
        if (socket.State is not (WebSocketState.Open or WebSocketState.CloseReceived))
        {
            return;
        }

        try
        {
            using var timeout = new CancellationTokenSource(CloseTimeout);
            await socket.CloseOutputAsync(status, null, timeout.Token).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or ObjectDisposedException)
        {
            socket.Abort();
        }
    }
}
