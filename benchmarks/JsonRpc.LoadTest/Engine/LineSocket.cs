using System.Buffers;
using System.Net;
using System.Net.Sockets;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A TCP connection speaking newline-delimited JSON with as little in between as possible: one receive buffer that
/// lines are sliced from in place (grown to fit the longest line), and one send buffer that a whole batch of lines is
/// written into and sent with one call. Not thread-safe: one reader-writer loop owns it.
/// </summary>
internal sealed class LineSocket : IDisposable
{
    private const int MinReceive = 64 * 1024;
    private readonly Socket _socket;
    private byte[] _receive;
    private int _start;
    private int _end;

    private LineSocket(Socket socket, int expectedLine)
    {
        _socket = socket;
        _receive = new byte[Math.Max(MinReceive, expectedLine * 4)];
    }

    /// <summary>Where lines to send are written; <see cref="FlushAsync"/> sends them.</summary>
    public ArrayBufferWriter<byte> Output { get; } = new(64 * 1024);

    public static async Task<LineSocket> ConnectAsync(EndPoint endPoint, int expectedLine, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
            return new LineSocket(socket, expectedLine);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Slices the next complete line off the receive buffer (without its <c>\n</c> or <c>\r\n</c>).</summary>
    public bool TryReadLine(out ReadOnlySpan<byte> line)
    {
        var pending = _receive.AsSpan(_start, _end - _start);
        var newline = pending.IndexOf((byte)'\n');
        if (newline < 0)
        {
            line = default;
            return false;
        }

        line = pending[..newline];
        if (!line.IsEmpty && line[^1] == '\r')
        {
            line = line[..^1];
        }

        _start += newline + 1;
        return true;
    }

    /// <summary>Receives more bytes after what is unread; false when the peer closed the connection.</summary>
    public async ValueTask<bool> ReceiveAsync(CancellationToken cancellationToken)
    {
        if (_start == _end)
        {
            _start = _end = 0;
        }
        else if (_receive.Length - _end < _receive.Length / 4)
        {
            // Make room: move the unread part to the front, or grow when one line fills most of the buffer.
            var unread = _end - _start;
            var target = unread > _receive.Length / 2 ? new byte[_receive.Length * 2] : _receive;
            Buffer.BlockCopy(_receive, _start, target, 0, unread);
            _receive = target;
            _start = 0;
            _end = unread;
        }

        var read = await _socket.ReceiveAsync(_receive.AsMemory(_end), SocketFlags.None, cancellationToken).ConfigureAwait(false);
        _end += read;
        return read > 0;
    }

    /// <summary>Sends everything in <see cref="Output"/> and clears it.</summary>
    public async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        var pending = Output.WrittenMemory;
        while (!pending.IsEmpty)
        {
            var sent = await _socket.SendAsync(pending, SocketFlags.None, cancellationToken).ConfigureAwait(false);
            pending = pending[sent..];
        }

        Output.ResetWrittenCount();
    }

    /// <summary>Sends one line now (setup messages).</summary>
    public ValueTask SendLineAsync(ReadOnlySpan<byte> line, CancellationToken cancellationToken)
    {
        Output.Write(line);
        Output.Write("\n"u8);
        return FlushAsync(cancellationToken);
    }

    /// <summary>Reads lines until one arrives, up to the token; null if the peer closed first.</summary>
    public async ValueTask<byte[]?> ReadLineAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            if (TryReadLine(out var line))
            {
                return line.ToArray();
            }

            if (!await ReceiveAsync(cancellationToken).ConfigureAwait(false))
            {
                return null;
            }
        }
    }

    public void Dispose() => _socket.Dispose();
}
