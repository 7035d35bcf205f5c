using System.Buffers;
using System.Collections.Concurrent;
using System.IO.Pipelines;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using JsonRpc.Dispatch;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client.Tests.Infrastructure;

/// <summary>
/// A small, plain (non-router) JSON-RPC 2.0 server on a real TcpListener at 127.0.0.1, port 0: newline-delimited or
/// Content-Length (Core's framers), optionally TLS. Its methods run through the project's JsonRpcDispatcher; tests can also make it call the client,
/// send it notifications, withhold answers, or drop every connection.
/// </summary>
public sealed class TestServer : IAsyncDisposable
{
    private readonly TcpListener _listener;
    private readonly X509Certificate2? _certificate;
    private readonly CancellationTokenSource _stop = new();
    private readonly ConcurrentDictionary<Connection, bool> _connections = new();
    private readonly ConcurrentDictionary<string, TaskCompletionSource<string>> _serverCalls = new();
    private readonly Task _accepting;
    private int _serverCallId;

    private readonly bool _contentLength;

    public TestServer(X509Certificate2? certificate = null, int port = 0, bool contentLength = false)
    {
        _certificate = certificate;
        _contentLength = contentLength;
        _listener = new TcpListener(IPAddress.Loopback, port);
        _listener.Server.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    public int Port { get; }

    public JsonRpcDispatcher Dispatcher { get; } = new();

    /// <summary>Every message received, as text, in order.</summary>
    public ConcurrentQueue<string> Received { get; } = new();

    /// <summary>Methods whose requests (and batches with such a call) get no answer at all (to test timeouts and keep-alive failure).</summary>
    public ConcurrentDictionary<string, bool> Unanswered { get; } = new();

    public int ConnectionCount => _connections.Count;

    public int AcceptedCount;

    /// <summary>Sends one raw line to every connected client.</summary>
    public async Task SendToAllAsync(string json)
    {
        foreach (var connection in _connections.Keys)
        {
            await connection.WriteAsync(Encoding.UTF8.GetBytes(json));
        }
    }

    /// <summary>Sends several messages to every connected client in one write, so that each client reads them together.</summary>
    public async Task SendTogetherToAllAsync(IEnumerable<string> messages)
    {
        foreach (var connection in _connections.Keys)
        {
            await connection.WriteAsync(messages.Select(m => (ReadOnlyMemory<byte>)Encoding.UTF8.GetBytes(m)).ToArray());
        }
    }

    /// <summary>Calls a method the (single) connected client serves and returns the whole answer message.</summary>
    public async Task<string> CallClientAsync(string method, string? paramsJson)
    {
        var id = "s" + Interlocked.Increment(ref _serverCallId);
        var answer = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        _serverCalls[id] = answer;
        var p = paramsJson is null ? "" : ",\"params\":" + paramsJson;
        await SendToAllAsync($"{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"{method}\"{p}}}");
        return await answer.Task.WaitAsync(TimeSpan.FromSeconds(10));
    }

    /// <summary>
    /// Calls several methods the (single) connected client serves with one write, so that the client reads them
    /// together, and returns each whole answer message in the order of <paramref name="calls"/>.
    /// </summary>
    public async Task<string[]> CallClientTogetherAsync(params (string Method, string? ParamsJson)[] calls)
    {
        var answers = new Task<string>[calls.Length];
        var lines = new string[calls.Length];
        for (var i = 0; i < calls.Length; i++)
        {
            var id = "s" + Interlocked.Increment(ref _serverCallId);
            var answer = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            _serverCalls[id] = answer;
            answers[i] = answer.Task;
            var p = calls[i].ParamsJson is null ? "" : ",\"params\":" + calls[i].ParamsJson;
            lines[i] = $"{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"{calls[i].Method}\"{p}}}";
        }

        await SendTogetherToAllAsync(lines);
        return await Task.WhenAll(answers).WaitAsync(TimeSpan.FromSeconds(30));
    }

    /// <summary>Aborts every connection (the listener keeps accepting).</summary>
    public void DropAll()
    {
        foreach (var connection in _connections.Keys)
        {
            connection.Abort();
        }
    }

    public async Task<int> WaitForConnectionsAsync(int accepted, TimeSpan timeout)
    {
        await Eventually.TrueAsync(() => Volatile.Read(ref AcceptedCount) >= accepted, $"{accepted} connections arrived", timeout);
        return AcceptedCount;
    }

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        DropAll();
        try
        {
            await _accepting.WaitAsync(TimeSpan.FromSeconds(5));
        }
        catch (Exception)
        {
            // Stopped.
        }

        _listener.Dispose();
    }

    public static X509Certificate2 CreateCertificate()
    {
        using var key = System.Security.Cryptography.RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, System.Security.Cryptography.HashAlgorithmName.SHA256, System.Security.Cryptography.RSASignaturePadding.Pkcs1);
        var san = new SubjectAlternativeNameBuilder();
        san.AddDnsName("localhost");
        san.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(san.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pfx), null);
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception)
            {
                return;
            }

            _ = ServeAsync(socket);
        }
    }

    private async Task ServeAsync(Socket socket)
    {
        socket.NoDelay = true;
        Stream stream = new NetworkStream(socket, ownsSocket: true);
        if (_certificate is not null)
        {
            var ssl = new SslStream(stream);
            try
            {
                await ssl.AuthenticateAsServerAsync(_certificate);
            }
            catch (Exception)
            {
                Interlocked.Increment(ref AcceptedCount);
                await ssl.DisposeAsync();
                return;
            }

            stream = ssl;
        }

        IJsonRpcFramer framer = _contentLength ? new ContentLengthFramer() : new NewlineDelimitedFramer();
        var connection = new Connection(socket, stream, framer);
        _connections[connection] = true;

        // Counted once it is in _connections: a test that waits for the count then sends to every connection reaches it.
        Interlocked.Increment(ref AcceptedCount);
        var reader = PipeReader.Create(stream);
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(_stop.Token);
                var buffer = result.Buffer;
                while (framer.TryReadMessage(ref buffer, out var message))
                {
                    _ = HandleAsync(connection, message.ToArray());
                }

                reader.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception)
        {
            // Dropped.
        }
        finally
        {
            _connections.TryRemove(connection, out _);
            await reader.CompleteAsync();
            connection.Abort();
        }
    }

    private async Task HandleAsync(Connection connection, byte[] message)
    {
        Received.Enqueue(Encoding.UTF8.GetString(message));
        if (JsonRpcMessageReader.TryRead(message, out var info, out _))
        {
            if (info.Kind is JsonRpcMessageKind.Response or JsonRpcMessageKind.Error)
            {
                var id = info.GetId(message).String;
                if (id is not null && _serverCalls.TryRemove(id, out var answer))
                {
                    answer.TrySetResult(Encoding.UTF8.GetString(message));
                }

                return;
            }

            if (info.Kind == JsonRpcMessageKind.Request && Unanswered.ContainsKey(Encoding.UTF8.GetString(message[info.Method])))
            {
                return;
            }

            if (info.Kind == JsonRpcMessageKind.Batch && IsUnansweredBatch(message))
            {
                return;
            }
        }

        var output = new ArrayBufferWriter<byte>();
        if (await Dispatcher.DispatchAsync(message, output))
        {
            await connection.WriteAsync(output.WrittenMemory);
        }
    }

    /// <summary>A batch with a call of an unanswered method gets no answer at all.</summary>
    private bool IsUnansweredBatch(byte[] message)
    {
        foreach (var range in JsonRpcMessageReader.EnumerateBatch(message))
        {
            var element = message.AsSpan()[range];
            if (JsonRpcMessageReader.TryRead(element, out var info, out _) && info.Kind == JsonRpcMessageKind.Request
                && Unanswered.ContainsKey(Encoding.UTF8.GetString(element[info.Method])))
            {
                return true;
            }
        }

        return false;
    }

    private sealed class Connection(Socket socket, Stream stream, IJsonRpcFramer framer)
    {
        private readonly SemaphoreSlim _writeLock = new(1, 1);

        public Task WriteAsync(ReadOnlyMemory<byte> message) => WriteAsync([message]);

        /// <summary>Frames every message into one buffer and sends it with one write.</summary>
        public async Task WriteAsync(ReadOnlyMemory<byte>[] messages)
        {
            await _writeLock.WaitAsync();
            try
            {
                var framed = new ArrayBufferWriter<byte>();
                foreach (var message in messages)
                {
                    framer.WriteMessage(framed, message.Span);
                }

                await stream.WriteAsync(framed.WrittenMemory);
                await stream.FlushAsync();
            }
            catch (Exception)
            {
                // The connection is gone.
            }
            finally
            {
                _writeLock.Release();
            }
        }

        public void Abort()
        {
            try
            {
                socket.LingerState = new LingerOption(true, 0);
                socket.Dispose();
            }
            catch (Exception)
            {
                // Already gone.
            }
        }
    }
}
