using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace JsonRpc.Testing.Lines;

/// <summary>A raw TCP client speaking newline-delimited JSON, with a timeout on every read.</summary>
public sealed class LineClient : IAsyncDisposable
{
    public static readonly TimeSpan ReadTimeout = TimeSpan.FromSeconds(15); // generous: CI machines may be loaded; only failures wait this long

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private const int MaxLine = 8 * 1024 * 1024;
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;
    private int _nextId = 1000;

    private LineClient(Socket socket)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
    }

    public Socket Socket => _socket;

    public Stream Stream => _stream;

    public static async Task<LineClient> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port)).WaitAsync(ReadTimeout);
        return new LineClient(socket);
    }

    public Task SendAsync(string json) => SendRawAsync(Encoding.UTF8.GetBytes(json + "\n"));

    public async Task SendRawAsync(byte[] bytes) => await _stream.WriteAsync(bytes).AsTask().WaitAsync(ReadTimeout);

    /// <summary>Reads one line; null at the end of the stream (or when the server reset the connection).</summary>
    public async Task<string?> ReadLineAsync(TimeSpan? timeout = null)
    {
        using var cts = new CancellationTokenSource(timeout ?? ReadTimeout);
        while (true)
        {
            var newline = Array.IndexOf(_buffer, (byte)'\n', _start, _end - _start);
            if (newline >= 0)
            {
                var line = Encoding.UTF8.GetString(_buffer, _start, newline - _start);
                _start = newline + 1;
                return line;
            }

            if (_start > 0)
            {
                Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
                _end -= _start;
                _start = 0;
            }

            if (_end == _buffer.Length)
            {
                // Lines up to 8 MiB (large-message tests): the buffer doubles as needed.
                if (_buffer.Length >= MaxLine)
                {
                    throw new InvalidOperationException("Line longer than the test client's buffer.");
                }

                Array.Resize(ref _buffer, _buffer.Length * 2);
            }

            int read;
            try
            {
                read = await _stream.ReadAsync(_buffer.AsMemory(_end), cts.Token);
            }
            catch (IOException)
            {
                return null;
            }
            catch (OperationCanceledException)
            {
                throw new TimeoutException($"No complete line within {(timeout ?? ReadTimeout).TotalMilliseconds} ms.");
            }

            if (read == 0)
            {
                return null;
            }

            _end += read;
        }
    }

    /// <summary>Reads one message and parses it.</summary>
    public async Task<JsonElement> ReadAsync(TimeSpan? timeout = null)
    {
        var line = await ReadLineAsync(timeout) ?? throw new IOException("The server closed the connection.");
        using var document = JsonDocument.Parse(line);
        return document.RootElement.Clone();
    }

    /// <summary>Asserts that nothing arrives within <paramref name="wait"/>.</summary>
    public async Task AssertSilentAsync(TimeSpan wait)
    {
        try
        {
            var line = await ReadLineAsync(wait);
            Assert.Fail($"Expected nothing, got: {line ?? "<closed>"}");
        }
        catch (TimeoutException)
        {
        }
    }

    /// <summary>Waits for the server to close the connection, skipping what it still sends.</summary>
    public async Task AssertClosedAsync(TimeSpan? timeout = null)
    {
        var deadline = DateTime.UtcNow + (timeout ?? ReadTimeout);
        while (DateTime.UtcNow < deadline)
        {
            if (await ReadLineAsync(deadline - DateTime.UtcNow) is null)
            {
                return;
            }
        }

        Assert.Fail("The server did not close the connection.");
    }

    public async Task<JsonElement> CallAsync(string method, string? @params = null)
    {
        var id = Interlocked.Increment(ref _nextId);
        await SendAsync(Request(id, method, @params));
        var answer = await ReadAsync();
        Assert.Equal(id, answer.GetProperty("id").GetInt32());
        return answer;
    }

    public static string Request(object id, string method, string? @params = null)
    {
        var idJson = id is string s ? JsonSerializer.Serialize(s) : Convert.ToString(id, System.Globalization.CultureInfo.InvariantCulture);
        return $$"""{"jsonrpc":"2.0","id":{{idJson}},"method":"{{method}}"{{(@params is null ? "" : ",\"params\":" + @params)}}}""";
    }

    public static string Notification(string method, string? @params = null)
        => $$"""{"jsonrpc":"2.0","method":"{{method}}"{{(@params is null ? "" : ",\"params\":" + @params)}}}""";

    public async Task RegisterAsync(string name, string? token = null)
    {
        var answer = await CallAsync("register_client", token is null ? $$"""{"name":"{{name}}"}""" : $$"""{"name":"{{name}}","token":"{{token}}"}""");
        Assert.True(answer.GetProperty("result").GetBoolean(), answer.ToString());
    }

    public async Task ProvideAsync(string method)
    {
        var answer = await CallAsync("register_method", $$"""{"method":"{{method}}"}""");
        Assert.True(answer.GetProperty("result").GetBoolean(), answer.ToString());
    }

    public async Task SubscribeAsync(string @event)
    {
        var answer = await CallAsync("subscribe", $$"""{"event":"{{@event}}"}""");
        Assert.True(answer.GetProperty("result").GetBoolean(), answer.ToString());
    }

    /// <summary>Reads a routed request and answers it with <paramref name="resultJson"/>; returns the request.</summary>
    public async Task<JsonElement> ServeOneAsync(string resultJson)
    {
        var request = await ReadAsync();
        await SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":{{resultJson}}}""");
        return request;
    }

    public async Task<JsonElement> StatsAsync() => (await CallAsync("get_server_stats")).GetProperty("result");

    public ValueTask DisposeAsync()
    {
        _stream.Dispose();
        return ValueTask.CompletedTask;
    }
}
