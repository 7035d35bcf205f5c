using System.Net.WebSockets;
using System.Text;
using System.Text.Json;

namespace JsonRpc.Testing.Web;

/// <summary>A raw WebSocket peer of the router, to see exactly which messages and close statuses go over the wire.</summary>
public sealed class WsClient : IAsyncDisposable
{
    private readonly ClientWebSocket _socket = new();

    private WsClient()
    {
    }

    /// <summary>The client socket, to read its state and close status.</summary>
    public WebSocket Socket => _socket;

    /// <summary>
    /// Connects to <paramref name="uri"/>, with an Origin and an Authorization: Bearer header when given;
    /// <paramref name="configure"/> sets anything else (a client certificate for wss://).
    /// </summary>
    public static async Task<WsClient> ConnectAsync(Uri uri, string? origin = null, string? bearer = null, Action<ClientWebSocketOptions>? configure = null)
    {
        var client = new WsClient();
        client._socket.Options.KeepAliveInterval = TimeSpan.Zero;
        configure?.Invoke(client._socket.Options);
        if (bearer is not null)
        {
            client._socket.Options.SetRequestHeader("Authorization", "Bearer " + bearer);
        }

        if (origin is not null)
        {
            client._socket.Options.SetRequestHeader("Origin", origin);
        }

        await client._socket.ConnectAsync(uri, CancellationToken.None).Within();
        return client;
    }

    /// <summary>Sends <paramref name="json"/> as one text message.</summary>
    public Task SendAsync(string json) => SendAsync(Encoding.UTF8.GetBytes(json), WebSocketMessageType.Text);

    /// <summary>Sends <paramref name="bytes"/> as one message of <paramref name="type"/>.</summary>
    public async Task SendAsync(byte[] bytes, WebSocketMessageType type)
        => await _socket.SendAsync(bytes, type, endOfMessage: true, CancellationToken.None).Within();

    /// <summary>Sends <paramref name="json"/> as one text message in fragments of <paramref name="fragment"/> bytes.</summary>
    public async Task SendFragmentedAsync(string json, int fragment)
    {
        var bytes = Encoding.UTF8.GetBytes(json);
        for (var offset = 0; offset < bytes.Length; offset += fragment)
        {
            var count = Math.Min(fragment, bytes.Length - offset);
            await _socket.SendAsync(bytes.AsMemory(offset, count), WebSocketMessageType.Text, offset + count == bytes.Length, CancellationToken.None).Within();
        }
    }

    /// <summary>The next whole text message; fails on a close or a binary message.</summary>
    public async Task<string> ReceiveTextAsync()
    {
        var (type, text) = await ReceiveAsync();
        Assert.True(type == WebSocketMessageType.Text, $"Expected a text message, got {type} ({_socket.CloseStatus} {_socket.CloseStatusDescription}).");
        return text;
    }

    /// <summary>The next whole text message, parsed.</summary>
    public async Task<JsonElement> ReceiveJsonAsync() => JsonDocument.Parse(await ReceiveTextAsync()).RootElement.Clone();

    /// <summary>Reads and answers (or skips) messages until one whose id is <paramref name="id"/>.</summary>
    public async Task<JsonElement> ReceiveAnswerAsync(int id)
    {
        while (true)
        {
            var message = await ReceiveJsonAsync();
            if (message.ValueKind == JsonValueKind.Object && message.TryGetProperty("id", out var got)
                && got.ValueKind == JsonValueKind.Number && got.GetInt32() == id && !message.TryGetProperty("method", out _))
            {
                return message;
            }
        }
    }

    /// <summary>The next whole message and its type (<see cref="WebSocketMessageType.Close"/> when the router closed).</summary>
    public async Task<(WebSocketMessageType Type, string Text)> ReceiveAsync()
    {
        var buffer = new byte[16 * 1024];
        using var message = new MemoryStream();
        while (true)
        {
            var result = await _socket.ReceiveAsync(buffer, CancellationToken.None).Within();
            if (result.MessageType == WebSocketMessageType.Close)
            {
                return (WebSocketMessageType.Close, string.Empty);
            }

            message.Write(buffer, 0, result.Count);
            if (result.EndOfMessage)
            {
                return (result.MessageType, Encoding.UTF8.GetString(message.ToArray()));
            }
        }
    }

    /// <summary>Reads until the router closes, skipping messages; returns the close status.</summary>
    public async Task<WebSocketCloseStatus?> ReceiveCloseAsync()
    {
        while (true)
        {
            var (type, _) = await ReceiveAsync();
            if (type == WebSocketMessageType.Close)
            {
                return _socket.CloseStatus;
            }
        }
    }

    /// <summary>Calls a method and returns its answer (skipping anything else that arrives first).</summary>
    public async Task<JsonElement> CallAsync(int id, string method, string? @params = null)
    {
        await SendAsync(Request(id, method, @params));
        return await ReceiveAnswerAsync(id);
    }

    /// <summary>A request's JSON text.</summary>
    public static string Request(int id, string method, string? @params = null)
        => $"{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{method}\"{(@params is null ? "" : ",\"params\":" + @params)}}}";

    /// <summary>Closes the socket normally when it is open (bounded), then disposes it.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_socket.State == WebSocketState.Open)
        {
            try
            {
                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(2));
                await _socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, timeout.Token);
            }
            catch (Exception ex) when (ex is WebSocketException or OperationCanceledException)
            {
                // Already broken: disposing aborts it.
            }
        }

        _socket.Dispose();
    }
}
