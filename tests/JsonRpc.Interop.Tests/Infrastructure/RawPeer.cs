using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>
/// A client that writes and reads newline-delimited JSON-RPC by hand over a real socket, as an LSP or MCP peer's
/// bytes would go: tests see exactly what the router passes on.
/// </summary>
public sealed class RawPeer : IAsyncDisposable
{
    private readonly TcpClient _tcp;
    private readonly StreamReader _reader;
    private readonly Stream _stream;
    private int _ids;

    private RawPeer(TcpClient tcp)
    {
        _tcp = tcp;
        _stream = tcp.GetStream();
        _reader = new StreamReader(_stream, new UTF8Encoding(false));
    }

    public static async Task<RawPeer> ConnectAsync(int port)
    {
        var tcp = new TcpClient { NoDelay = true };
        await tcp.ConnectAsync(IPAddress.Loopback, port).WaitAsync(Bounds.Step);
        return new RawPeer(tcp);
    }

    /// <summary>Connects, registers as <paramref name="name"/> and provides <paramref name="methods"/>.</summary>
    public static async Task<RawPeer> ConnectRegisteredAsync(int port, string name, params string[] methods)
    {
        var peer = await ConnectAsync(port);
        await peer.CallAsync("register_client", $$"""{"name":"{{name}}"}""");
        foreach (var method in methods)
        {
            await peer.CallAsync("register_method", $$"""{"method":"{{method}}"}""");
        }

        return peer;
    }

    /// <summary>Sends one message, as given, on a line of its own.</summary>
    public async Task SendAsync(string json)
    {
        var bytes = Encoding.UTF8.GetBytes(json + "\n");
        await _stream.WriteAsync(bytes).AsTask().WaitAsync(Bounds.Step);
    }

    /// <summary>The next message, exactly as it arrived.</summary>
    public async Task<string> ReadLineAsync()
        => await _reader.ReadLineAsync().WaitAsync(Bounds.Step) ?? throw new IOException("The router closed the connection.");

    /// <summary>Calls a method (of the router, here) and returns its answer's result, failing on an error.</summary>
    public async Task<JsonElement> CallAsync(string method, string @params)
    {
        var id = "c" + Interlocked.Increment(ref _ids);
        await SendAsync($$"""{"jsonrpc":"2.0","id":"{{id}}","method":"{{method}}","params":{{@params}}}""");
        using var answer = JsonDocument.Parse(await ReadLineAsync());
        Assert.Equal(id, answer.RootElement.GetProperty("id").GetString());
        Assert.True(answer.RootElement.TryGetProperty("result", out var result), answer.RootElement.ToString());
        return result.Clone();
    }

    /// <summary>Reads a call the router routed here and returns it with the id it carries (the router's).</summary>
    public async Task<(JsonElement Call, string IdToken)> ReadCallAsync(string method)
    {
        using var call = JsonDocument.Parse(await ReadLineAsync());
        Assert.Equal(method, call.RootElement.GetProperty("method").GetString());
        return (call.RootElement.Clone(), call.RootElement.GetProperty("id").GetRawText());
    }

    public async ValueTask DisposeAsync()
    {
        _tcp.Dispose();
        _reader.Dispose();
        await Task.CompletedTask;
    }
}
