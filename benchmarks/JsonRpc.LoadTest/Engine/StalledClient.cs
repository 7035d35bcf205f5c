using System.Buffers;
using System.Net;
using System.Net.Sockets;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A connection that misbehaves: it writes echo calls as fast as the router takes them and never reads a byte of
/// the answers, until the router closes it (the next write then fails) or it is told to stop.
/// </summary>
internal sealed class StalledClient : IDisposable
{
    private const int BatchBytes = 64 * 1024;
    private readonly Socket _socket;
    private readonly EchoPayload _payload;
    private readonly byte[] _prefix;

    private StalledClient(Socket socket, EchoPayload payload, string method)
    {
        _socket = socket;
        _payload = payload;
        _prefix = System.Text.Encoding.UTF8.GetBytes($$"""{"jsonrpc":"2.0","method":"{{method}}","params":[" """.TrimEnd());
    }

    public long CallsSent { get; private set; }

    public long BytesSent { get; private set; }

    /// <summary>Why the writes stopped, when the router closed the connection.</summary>
    public string? ClosedBecause { get; private set; }

    /// <summary>Connects; its calls go to <paramref name="method"/> (a provider's, or one the router answers itself).</summary>
    public static async Task<StalledClient> ConnectAsync(EndPoint endPoint, EchoPayload payload, string method, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
            return new StalledClient(socket, payload, method);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Writes calls until the router drops the connection (true) or <paramref name="stop"/> (false).</summary>
    public async Task<bool> SendUntilDroppedAsync(CancellationToken stop)
    {
        var batch = new ArrayBufferWriter<byte>(BatchBytes + _prefix.Length + _payload.Size + 64);
        long id = 0;
        try
        {
            while (!stop.IsCancellationRequested)
            {
                batch.ResetWrittenCount();
                var calls = 0;
                while (batch.WrittenCount < BatchBytes)
                {
                    WriteCall(batch, ++id);
                    calls++;
                }

                var pending = batch.WrittenMemory;
                while (!pending.IsEmpty)
                {
                    var sent = await _socket.SendAsync(pending, SocketFlags.None, stop).ConfigureAwait(false);
                    pending = pending[sent..];
                    BytesSent += sent;
                }

                CallsSent += calls;
            }

            return false;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return false;
        }
        catch (SocketException ex)
        {
            ClosedBecause = ex.Message;
            return true;
        }
    }

    /// <summary><c>{"jsonrpc":"2.0","method":"M","params":["…"],"id":N}</c> and a newline.</summary>
    private void WriteCall(ArrayBufferWriter<byte> output, long id)
    {
        output.Write(_prefix);
        _payload.WriteString(output.GetSpan(_payload.Size)[.._payload.Size], id);
        output.Advance(_payload.Size);
        output.Write("\"],\"id\":"u8);
        System.Buffers.Text.Utf8Formatter.TryFormat(id, output.GetSpan(20), out var written);
        output.Advance(written);
        output.Write("}\n"u8);
    }

    public void Dispose() => _socket.Dispose();
}
