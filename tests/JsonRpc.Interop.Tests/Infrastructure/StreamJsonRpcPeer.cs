using System.Net;
using System.Net.Sockets;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>A StreamJsonRpc <see cref="JsonRpc"/> connected to the router over a real loopback socket.</summary>
public sealed class StreamJsonRpcPeer : IAsyncDisposable
{
    private readonly IDisposable _tcp;

    private StreamJsonRpcPeer(IDisposable tcp, StreamJsonRpc.JsonRpc rpc)
    {
        _tcp = tcp;
        Rpc = rpc;
    }

    public StreamJsonRpc.JsonRpc Rpc { get; }

    /// <summary>Connects; <paramref name="setup"/> adds local methods before the peer starts listening.</summary>
    public static async Task<StreamJsonRpcPeer> ConnectAsync(int port, PeerFraming framing, Action<StreamJsonRpc.JsonRpc>? setup = null)
    {
        var tcp = new TcpClient { NoDelay = true };
        try
        {
            await tcp.ConnectAsync(IPAddress.Loopback, port).WaitAsync(Bounds.Step);
            var stream = tcp.GetStream();
            IJsonRpcMessageHandler handler = framing == PeerFraming.NewlineSystemTextJson
                ? JsonRpc.Peers.StreamJsonRpcNewline.Create(stream)
                : new HeaderDelimitedMessageHandler(stream, stream);
            var rpc = new StreamJsonRpc.JsonRpc(handler);
            setup?.Invoke(rpc);
            rpc.StartListening();
            return new StreamJsonRpcPeer(tcp, rpc);
        }
        catch
        {
            tcp.Dispose();
            throw;
        }
    }

    /// <summary>Connects over the router's WebSocket endpoint (one JSON-RPC message per text message, System.Text.Json).</summary>
    public static async Task<StreamJsonRpcPeer> ConnectWebSocketAsync(Uri uri, Action<StreamJsonRpc.JsonRpc>? setup = null)
    {
        var socket = new System.Net.WebSockets.ClientWebSocket();
        try
        {
            await socket.ConnectAsync(uri, CancellationToken.None).WaitAsync(Bounds.Step);
            var rpc = new StreamJsonRpc.JsonRpc(new WebSocketMessageHandler(socket, new SystemTextJsonFormatter()));
            setup?.Invoke(rpc);
            rpc.StartListening();
            return new StreamJsonRpcPeer(socket, rpc);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary><c>register_client</c>, then <c>register_method</c> for each of <paramref name="methods"/>.</summary>
    public async Task RegisterAsync(string name, params string[] methods)
    {
        Assert.True(await Rpc.InvokeWithParameterObjectAsync<bool>("register_client", new { name }).Within());
        foreach (var method in methods)
        {
            Assert.True(await Rpc.InvokeWithParameterObjectAsync<bool>("register_method", new { method }).Within());
        }
    }

    /// <summary><c>subscribe</c> to <paramref name="eventName"/>.</summary>
    public async Task SubscribeAsync(string eventName)
        => Assert.True(await Rpc.InvokeWithParameterObjectAsync<bool>("subscribe", new { @event = eventName }).Within());

    public async ValueTask DisposeAsync()
    {
        Rpc.Dispose();
        _tcp.Dispose();
        try
        {
            await Rpc.Completion.WaitAsync(Bounds.Step);
        }
        catch (Exception ex) when (ex is not TimeoutException)
        {
            // The connection ended as it was closed: that is how it should end.
        }
    }
}
