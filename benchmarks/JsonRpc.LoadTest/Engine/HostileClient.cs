using System.Buffers;
using System.Net;
using System.Net.Sockets;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// One hostile connection, kept up for as long as it is told: when the router drops it, it connects again and goes on,
/// so that the pressure on the router is constant. Each kind is what a careless or malicious client does to a shared
/// router (see <see cref="HostileKind"/>). Counts what it did and how often the router dropped it.
/// </summary>
internal sealed class HostileClient
{
    /// <summary>The method a deaf provider registers and never answers (see <see cref="DeafProvider"/>).</summary>
    public const string HoldMethod = "hold";

    private const int ChunkBytes = 64 * 1024;
    private readonly EndPoint _endPoint;
    private readonly int _maxMessageSize;
    private long _bytesSent;
    private long _drops;
    private long _errorsReceived;

    public HostileClient(HostileKind kind, EndPoint endPoint, int maxMessageSize)
    {
        Kind = kind;
        _endPoint = endPoint;
        _maxMessageSize = maxMessageSize;
    }

    public HostileKind Kind { get; }

    public long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>Times the router closed this client's connection.</summary>
    public long Drops => Interlocked.Read(ref _drops);

    /// <summary>JSON-RPC errors the router answered it with (refusals, parse errors), where it reads.</summary>
    public long ErrorsReceived => Interlocked.Read(ref _errorsReceived);

    /// <summary>Misbehaves until <paramref name="stop"/>, reconnecting whenever the router drops it.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(_endPoint, stop).ConfigureAwait(false);
                await (Kind switch
                {
                    HostileKind.NonReading => NeverReadAsync(socket, stop),
                    HostileKind.BatchHolding => HoldBatchesAsync(socket, stop),
                    HostileKind.Slowloris => TrickleAsync(socket, stop),
                    HostileKind.Oversize => OversizeAsync(socket, stop),
                    _ => NestAsync(socket, stop),
                }).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
            {
                // Dropped by the router (or refused while it was at its connection limit): go again after a breath.
            }

            Interlocked.Increment(ref _drops);
            try
            {
                await Task.Delay(50, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    /// <summary>Writes echo calls as fast as the router takes them and never reads an answer.</summary>
    private async Task NeverReadAsync(Socket socket, CancellationToken stop)
    {
        var payload = new EchoPayload(1000, 9000 + (int)Kind);
        var output = new ArrayBufferWriter<byte>(ChunkBytes + 2048);
        long id = 0;
        while (!stop.IsCancellationRequested)
        {
            output.ResetWrittenCount();
            while (output.WrittenCount < ChunkBytes)
            {
                payload.WriteRequest(output, ++id);
            }

            await SendAsync(socket, output.WrittenMemory, stop).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Sends batches that the router must hold: each has one call to <see cref="HoldMethod"/>, which its provider never
    /// answers, and 2,000 echo calls whose answers the router keeps until the batch is complete (at the call timeout).
    /// It reads and discards whatever comes back, so it is not the one that does not read.
    /// </summary>
    private async Task HoldBatchesAsync(Socket socket, CancellationToken stop)
    {
        var payload = new EchoPayload(400, 9100);
        var batch = new ArrayBufferWriter<byte>(1024 * 1024);
        var call = new ArrayBufferWriter<byte>(1024);
        using var reading = CancellationTokenSource.CreateLinkedTokenSource(stop);
        var reader = DrainAsync(socket, reading.Token);
        long id = 0;
        try
        {
            while (!stop.IsCancellationRequested && !reader.IsCompleted)
            {
                batch.ResetWrittenCount();
                batch.Write("""[{"jsonrpc":"2.0","id":"h","method":"hold"}"""u8);
                for (var i = 0; i < 2000; i++)
                {
                    batch.Write(","u8);
                    call.ResetWrittenCount();
                    payload.WriteRequest(call, ++id);
                    batch.Write(call.WrittenSpan[..^1]); // without its newline, which would end the batch's frame
                }

                batch.Write("]\n"u8);
                await SendAsync(socket, batch.WrittenMemory, stop).ConfigureAwait(false);
                await Task.Delay(20, stop).ConfigureAwait(false);
            }
        }
        finally
        {
            await reading.CancelAsync().ConfigureAwait(false);
            await reader.ConfigureAwait(false);
        }

        throw new IOException("The router closed the batch-holding connection.");
    }

    /// <summary>Slowloris: one message that never ends, a few bytes at a time, as slowly as a router would still wait for.</summary>
    private async Task TrickleAsync(Socket socket, CancellationToken stop)
    {
        await SendAsync(socket, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\""u8.ToArray(), stop).ConfigureAwait(false);
        var filler = new byte[16 * 1024];
        filler.AsSpan().Fill((byte)'s');
        var sent = 0L;
        while (!stop.IsCancellationRequested && sent < 16L * _maxMessageSize)
        {
            await SendAsync(socket, filler, stop).ConfigureAwait(false);
            sent += filler.Length;
            await Task.Delay(50, stop).ConfigureAwait(false); // ~320 KB/s: slow, but under any idle timeout
        }
    }

    /// <summary>One message far larger than the router's maximum, written as fast as it takes it.</summary>
    private async Task OversizeAsync(Socket socket, CancellationToken stop)
    {
        await SendAsync(socket, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":[\""u8.ToArray(), stop).ConfigureAwait(false);
        var filler = new byte[ChunkBytes];
        filler.AsSpan().Fill((byte)'o');
        for (long sent = 0; sent < 16L * _maxMessageSize && !stop.IsCancellationRequested; sent += filler.Length)
        {
            await SendAsync(socket, filler, stop).ConfigureAwait(false);
        }
    }

    /// <summary>Calls whose params nest 100,000 arrays deep (a parser that recurses would overflow its stack), reading the answers.</summary>
    private async Task NestAsync(Socket socket, CancellationToken stop)
    {
        const int Depth = 100_000;
        var message = new ArrayBufferWriter<byte>(2 * Depth + 128);
        message.Write("""{"jsonrpc":"2.0","id":3,"method":"echo","params":"""u8);
        message.GetSpan(Depth)[..Depth].Fill((byte)'[');
        message.Advance(Depth);
        message.GetSpan(Depth)[..Depth].Fill((byte)']');
        message.Advance(Depth);
        message.Write("}\n"u8);
        var reply = new byte[4096];
        while (!stop.IsCancellationRequested)
        {
            await SendAsync(socket, message.WrittenMemory, stop).ConfigureAwait(false);
            var read = await socket.ReceiveAsync(reply, SocketFlags.None, stop).ConfigureAwait(false);
            if (read == 0)
            {
                return;
            }

            if (reply.AsSpan(0, read).IndexOf("\"error\""u8) >= 0)
            {
                Interlocked.Increment(ref _errorsReceived);
            }
        }
    }

    private async Task DrainAsync(Socket socket, CancellationToken stop)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None, stop).ConfigureAwait(false);
                if (read == 0)
                {
                    return;
                }

                var span = buffer.AsSpan(0, read);
                for (var at = span.IndexOf("\"error\""u8); at >= 0; at = span.IndexOf("\"error\""u8))
                {
                    Interlocked.Increment(ref _errorsReceived);
                    span = span[(at + 7)..];
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }

    private async Task SendAsync(Socket socket, ReadOnlyMemory<byte> data, CancellationToken stop)
    {
        while (!data.IsEmpty)
        {
            var sent = await socket.SendAsync(data, SocketFlags.None, stop).ConfigureAwait(false);
            if (sent == 0)
            {
                throw new IOException("The router stopped taking bytes.");
            }

            data = data[sent..];
            Interlocked.Add(ref _bytesSent, sent);
        }
    }

    /// <summary>Parses <c>non-reading,batch-holding,slowloris,oversize,deep-nesting</c> (or <c>all</c>).</summary>
    public static IReadOnlyList<HostileKind> ParseKinds(string text)
    {
        if (text == "all")
        {
            return Enum.GetValues<HostileKind>();
        }

        return [.. text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(ParseKind)];
    }

    public static HostileKind ParseKind(string name) => name switch
    {
        "non-reading" => HostileKind.NonReading,
        "batch-holding" => HostileKind.BatchHolding,
        "slowloris" => HostileKind.Slowloris,
        "oversize" => HostileKind.Oversize,
        "deep-nesting" => HostileKind.DeepNesting,
        _ => throw new ArgumentException($"Unknown hostile kind '{name}': use non-reading, batch-holding, slowloris, oversize, deep-nesting or all."),
    };

    public static string Name(HostileKind kind) => kind switch
    {
        HostileKind.NonReading => "non-reading",
        HostileKind.BatchHolding => "batch-holding",
        HostileKind.Slowloris => "slowloris",
        HostileKind.Oversize => "oversize",
        _ => "deep-nesting",
    };

    /// <summary>A short text for reports.</summary>
    public static string Describe(IEnumerable<HostileClient> clients) =>
        string.Join(", ", clients.Select(c => $"{Name(c.Kind)}: {c.BytesSent / 1e6:0.0} MB sent, dropped {c.Drops}x, {c.ErrorsReceived} errors"));
}
