using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace JsonRpc.LoadTest.Soak;

/// <summary>
/// A raw socket caller for the soak: it keeps a few echo calls in flight, paced, with a batch of five now and then,
/// and checks every answer against its calls: each id answered once (a result that is its own payload, or an error),
/// none that was never sent, none twice. Told to, it closes its connection with calls in flight (they are abandoned,
/// not lost: nobody is left to answer) and connects again.
/// </summary>
internal sealed class SoakRawCaller
{
    private const int Window = 4;
    private readonly EndPoint _endPoint;
    private readonly int _index;
    private readonly SoakTally _tally;
    private readonly Lock _lock = new();
    private readonly Dictionary<long, long> _outstanding = [];
    private long _nextId = 1;
    private volatile bool _disconnectRequested;

    public SoakRawCaller(EndPoint endPoint, int index, SoakTally tally)
    {
        _endPoint = endPoint;
        _index = index;
        _tally = tally;
    }

    public int Outstanding
    {
        get
        {
            lock (_lock)
            {
                return _outstanding.Count;
            }
        }
    }

    /// <summary>Closes the connection with calls in flight at the next chance, then connects again.</summary>
    public void Disconnect() => _disconnectRequested = true;

    /// <summary>Calls until <paramref name="stopSending"/>, then waits for the last answers until <paramref name="hardStop"/>; what is still unanswered then is lost.</summary>
    public async Task RunAsync(CancellationToken stopSending, CancellationToken hardStop)
    {
        while (!stopSending.IsCancellationRequested && !hardStop.IsCancellationRequested)
        {
            using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(_endPoint, hardStop).ConfigureAwait(false);
            }
            catch (SocketException)
            {
                _tally.Add(ref _tally.ConnectFailures);
                await Task.Delay(200, hardStop).ConfigureAwait(false);
                continue;
            }

            using var connection = CancellationTokenSource.CreateLinkedTokenSource(hardStop);
            var reading = ReadAsync(socket, connection.Token);
            var ended = End.Broken;
            try
            {
                ended = await SendAsync(socket, stopSending, hardStop, reading).ConfigureAwait(false);
                if (ended == End.Finished)
                {
                    // The last answers: every call made gets one, or the hard stop comes.
                    while (Outstanding > 0 && !reading.IsCompleted && !hardStop.IsCancellationRequested)
                    {
                        await Task.WhenAny(reading, Task.Delay(20, hardStop)).ConfigureAwait(false);
                    }
                }
            }
            catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException or OperationCanceledException)
            {
                ended = hardStop.IsCancellationRequested ? End.Finished : End.Broken;
            }

            await connection.CancelAsync().ConfigureAwait(false);
            socket.Dispose();
            await reading.ConfigureAwait(false);
            lock (_lock)
            {
                // What was in flight on this connection can no longer be answered.
                var left = _outstanding.Count;
                if (ended == End.Disconnected)
                {
                    _tally.Add(ref _tally.Abandoned, left);
                }
                else if (ended == End.Finished)
                {
                    _tally.Add(ref _tally.Lost, left);
                }
                else
                {
                    _tally.Add(ref _tally.LostWithConnection, left);
                }

                _outstanding.Clear();
                _disconnectRequested = false;
            }
        }
    }

    private enum End
    {
        Finished,
        Disconnected,
        Broken,
    }

    private async Task<End> SendAsync(Socket socket, CancellationToken stopSending, CancellationToken hardStop, Task reading)
    {
        var sends = 0;
        while (!reading.IsCompleted)
        {
            if (_disconnectRequested && Outstanding > 0)
            {
                return End.Disconnected; // mid-call, on purpose
            }

            if (stopSending.IsCancellationRequested)
            {
                return End.Finished;
            }

            if (Outstanding >= Window)
            {
                await Task.Delay(1, hardStop).ConfigureAwait(false);
                continue;
            }

            var message = ++sends % 20 == 0 ? Batch(5) : Call();
            await SendAllAsync(socket, message, hardStop).ConfigureAwait(false);
            await Task.Delay(1, hardStop).ConfigureAwait(false); // paced: a steady load, not a flood
        }

        return End.Broken;
    }

    private byte[] Call() => Encoding.UTF8.GetBytes(Request(Begin()) + "\n");

    private byte[] Batch(int size)
    {
        var calls = Enumerable.Range(0, size).Select(_ => Request(Begin()));
        return Encoding.UTF8.GetBytes("[" + string.Join(',', calls) + "]\n");
    }

    private long Begin()
    {
        lock (_lock)
        {
            var id = _nextId++;
            _outstanding[id] = Stopwatch.GetTimestamp();
            _tally.Add(ref _tally.Sent);
            return id;
        }
    }

    private string Request(long id) => $$"""{"jsonrpc":"2.0","id":{{id}},"method":"echo","params":["{{Payload(id)}}"]}""";

    private string Payload(long id) => $"soak-{_index}-{id}";

    private static async Task SendAllAsync(Socket socket, ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        while (!data.IsEmpty)
        {
            data = data[await socket.SendAsync(data, SocketFlags.None, cancellationToken).ConfigureAwait(false)..];
        }
    }

    private async Task ReadAsync(Socket socket, CancellationToken cancellationToken)
    {
        var buffer = new byte[64 * 1024];
        var filled = 0;
        try
        {
            while (true)
            {
                if (filled == buffer.Length)
                {
                    Array.Resize(ref buffer, buffer.Length * 2);
                }

                var read = await socket.ReceiveAsync(buffer.AsMemory(filled), SocketFlags.None, cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    return;
                }

                filled += read;
                var start = 0;
                for (var newline = Array.IndexOf(buffer, (byte)'\n', 0, filled); newline >= 0; newline = Array.IndexOf(buffer, (byte)'\n', start, filled - start))
                {
                    Answer(buffer.AsSpan(start, newline - start));
                    start = newline + 1;
                }

                Buffer.BlockCopy(buffer, start, buffer, 0, filled - start);
                filled -= start;
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }

    private void Answer(ReadOnlySpan<byte> line)
    {
        using var document = JsonDocument.Parse(line.ToArray());
        var root = document.RootElement;
        if (root.ValueKind == JsonValueKind.Array)
        {
            foreach (var element in root.EnumerateArray())
            {
                AnswerOne(element);
            }
        }
        else
        {
            AnswerOne(root);
        }
    }

    private void AnswerOne(JsonElement answer)
    {
        if (!answer.TryGetProperty("id", out var idElement) || !idElement.TryGetInt64(out var id))
        {
            // A notice from the router (an error without an id): not an answer to a call.
            _tally.Add(ref _tally.Notices);
            return;
        }

        long sentAt;
        lock (_lock)
        {
            if (!_outstanding.Remove(id, out sentAt))
            {
                _tally.Add(ref _tally.Strays); // never sent, or answered twice
                return;
            }
        }

        if (answer.TryGetProperty("result", out var result))
        {
            if (result.ValueKind == JsonValueKind.Array && result.GetArrayLength() == 1 && result[0].GetString() == Payload(id))
            {
                _tally.Result(Stopwatch.GetElapsedTime(sentAt));
            }
            else
            {
                _tally.Add(ref _tally.Mismatches);
            }
        }
        else if (answer.TryGetProperty("error", out var error) && error.TryGetProperty("code", out var code))
        {
            _tally.Error(code.GetInt32());
        }
        else
        {
            _tally.Add(ref _tally.Mismatches);
        }
    }
}
