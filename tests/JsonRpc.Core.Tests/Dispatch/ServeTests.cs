using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using JsonRpc.Dispatch;
using JsonRpc.Framing;
using JsonRpc.Protocol;

namespace JsonRpc.Core.Tests.Dispatch;

/// <summary><see cref="JsonRpcDispatcher.ServeAsync"/> serving a peer over a real loopback socket, newline-delimited.</summary>
public sealed class ServeTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);
    private static readonly DispatchJsonContext Json = DispatchJsonContext.Default;

    /// <summary>The dispatcher serving one accepted socket, and the peer's end of it.</summary>
    private sealed class Connection : IAsyncDisposable
    {
        private readonly TcpClient _peer;
        private readonly StreamReader _reader;
        private readonly Stream _stream;

        private Connection(TcpClient peer, Task serving)
        {
            _peer = peer;
            _stream = peer.GetStream();
            _reader = new StreamReader(_stream, Encoding.UTF8);
            Serving = serving;
        }

        /// <summary>ServeAsync's task: completes when the connection has ended.</summary>
        public Task Serving { get; }

        public static async Task<Connection> OpenAsync(JsonRpcDispatcher dispatcher, IJsonRpcFramer? framer = null)
        {
            using var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            var peer = new TcpClient();
            var connecting = peer.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)listener.LocalEndpoint).Port);
            var socket = await listener.AcceptSocketAsync().WaitAsync(Bound);
            await connecting.WaitAsync(Bound);
            return new Connection(peer, ServeAsync(dispatcher, socket, framer));

            static async Task ServeAsync(JsonRpcDispatcher dispatcher, Socket socket, IJsonRpcFramer? framer)
            {
                await using var stream = new NetworkStream(socket, ownsSocket: true);
                await dispatcher.ServeAsync(stream, framer);
            }
        }

        public async Task SendAsync(string line) => await _stream.WriteAsync(Encoding.UTF8.GetBytes(line + "\n")).AsTask().WaitAsync(Bound);

        public async Task<string?> ReadLineAsync() => await _reader.ReadLineAsync().WaitAsync(Bound);

        public void Close() => _peer.Client.Shutdown(SocketShutdown.Send);

        public async ValueTask DisposeAsync()
        {
            _peer.Dispose();
            await Serving.WaitAsync(Bound);
        }
    }

    private static JsonElement Parse(string? line) => JsonDocument.Parse(line!).RootElement;

    private static JsonRpcDispatcher Waiting(TaskCompletionSource<int>? started = null, JsonRpcDispatcherOptions? options = null)
    {
        var dispatcher = new JsonRpcDispatcher(options);
        dispatcher.Add("add", "a", "b", (int a, int b) => a + b, Json.Int32, Json.Int32, Json.Int32);
        dispatcher.Add("wait", async ct =>
        {
            started?.TrySetResult(1);
            await Task.Delay(Timeout.Infinite, ct);
            return 0;
        }, Json.Int32);
        return dispatcher;
    }

    [Fact]
    public async Task ServeAsync_InvalidJson_IsAnsweredParseError_AndTheConnectionGoesOn()
    {
        await using var connection = await Connection.OpenAsync(Waiting());

        await connection.SendAsync("{not json");
        var error = Parse(await connection.ReadLineAsync());
        Assert.Equal(JsonRpcErrorCodes.ParseError, error.GetProperty("error").GetProperty("code").GetInt32());
        Assert.Equal(JsonValueKind.Null, error.GetProperty("id").ValueKind);

        await connection.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"add","params":[2,3]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":5}""", await connection.ReadLineAsync());
    }

    [Fact]
    public async Task ServeAsync_MessageLargerThanTheFramerTakes_IsAnsweredWithWhy_AndEndsTheConnection()
    {
        await using var connection = await Connection.OpenAsync(Waiting(), new NewlineDelimitedFramer(maxMessageSize: 1024));

        await connection.SendAsync($$"""{"jsonrpc":"2.0","id":1,"method":"add","params":["{{new string('x', 2048)}}",1]}""");

        var error = Parse(await connection.ReadLineAsync()).GetProperty("error");
        Assert.Equal(JsonRpcErrorCodes.ParseError, error.GetProperty("code").GetInt32());
        Assert.Contains("1024", error.GetProperty("data").GetString());
        Assert.Null(await connection.ReadLineAsync()); // closed by the server
        await connection.Serving.WaitAsync(Bound);
    }

    [Fact]
    public async Task ServeAsync_EverySlotTaken_AFurtherCallIsRefused_AndCancellationsStillGetThrough()
    {
        var started = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var connection = await Connection.OpenAsync(Waiting(started, new JsonRpcDispatcherOptions { MaxConcurrentCalls = 2 }));
        await connection.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"wait"}""");
        await connection.SendAsync("""{"jsonrpc":"2.0","id":2,"method":"wait"}""");
        await connection.SendAsync("""{"jsonrpc":"2.0","id":3,"method":"add","params":[1,2]}""");

        var refused = Parse(await connection.ReadLineAsync());
        Assert.Equal(3, refused.GetProperty("id").GetInt32());
        Assert.Equal(JsonRpcDispatcher.Overloaded, refused.GetProperty("error").GetProperty("code").GetInt32());
        Assert.Contains("2 calls running", refused.GetProperty("error").GetProperty("data").GetString());

        // Both slots are still taken, and the cancellations that free them are read and served.
        await connection.SendAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}""");
        await connection.SendAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}""");
        var cancelled = new HashSet<int>();
        for (var i = 0; i < 2; i++)
        {
            var answer = Parse(await connection.ReadLineAsync());
            Assert.Equal(JsonRpcDispatcher.RequestCancelled, answer.GetProperty("error").GetProperty("code").GetInt32());
            cancelled.Add(answer.GetProperty("id").GetInt32());
        }

        Assert.Equal([1, 2], cancelled.Order());
        await connection.SendAsync("""{"jsonrpc":"2.0","id":4,"method":"add","params":[1,2]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":4,"result":3}""", await connection.ReadLineAsync());
    }

    [Fact]
    public async Task ServeAsync_PeerLeaves_RunningCallsAreCancelled_AndServeAsyncEnds()
    {
        var started = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var connection = await Connection.OpenAsync(Waiting(started));
        await connection.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"wait"}""");
        await started.Task.WaitAsync(Bound);

        connection.Close();

        await connection.Serving.WaitAsync(Bound); // would wait for ever if the call were not cancelled
    }
}
