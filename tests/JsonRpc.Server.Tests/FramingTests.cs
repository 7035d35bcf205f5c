using System.Text;
using System.Text.Json;

namespace JsonRpc.Server.Tests;

public sealed class FramingTests
{
    private static byte[] Frame(string json)
    {
        var body = Encoding.UTF8.GetBytes(json);
        return [.. Encoding.ASCII.GetBytes($"Content-Length: {body.Length}\r\n\r\n"), .. body];
    }

    /// <summary>Reads one Content-Length framed message.</summary>
    private static async Task<string> ReadFramedAsync(Stream stream)
    {
        using var cts = new CancellationTokenSource(LineClient.ReadTimeout);
        var header = new StringBuilder();
        var one = new byte[1];
        while (!header.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await stream.ReadAsync(one, cts.Token) == 0)
            {
                throw new IOException("closed");
            }

            header.Append((char)one[0]);
        }

        var length = int.Parse(header.ToString().Split(':')[1].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        var body = new byte[length];
        await stream.ReadExactlyAsync(body, cts.Token);
        return Encoding.UTF8.GetString(body);
    }

    [Fact]
    public async Task ContentLength_ConnectionThatOpensWithIt_IsServedInThatFraming()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "echo");
        await using var lsp = await server.ConnectAsync();

        // Two messages in one write, the second split across two more.
        var first = Frame(LineClient.Request(1, "keepAlive"));
        var second = Frame(LineClient.Request("two", "echo", "{\"a\":\"\\u00e9\u00e9\"}"));
        await lsp.SendRawAsync([.. first, .. second[..10]]);
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":true}""", await ReadFramedAsync(lsp.Stream));
        await lsp.SendRawAsync(second[10..]);

        // The newline provider gets it newline-framed; the answer goes back Content-Length framed.
        var request = await provider.ReadAsync();
        Assert.Equal("é" + "é", request.GetProperty("params").GetProperty("a").GetString());
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"back"}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"two","result":"back"}""", await ReadFramedAsync(lsp.Stream));
    }

    [Fact]
    public async Task ContentLength_LowercaseHeaderAndContentType_Accepted()
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectAsync();
        var body = Encoding.UTF8.GetBytes(LineClient.Request(3, "keepAlive"));
        await client.SendRawAsync([.. Encoding.ASCII.GetBytes($"content-length: {body.Length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"), .. body]);
        using var answer = JsonDocument.Parse(await ReadFramedAsync(client.Stream));
        Assert.True(answer.RootElement.GetProperty("result").GetBoolean());
    }

    [Fact]
    public async Task ContentLength_BrokenHeader_ParseErrorThenClose()
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectAsync();
        await client.SendRawAsync(Encoding.ASCII.GetBytes("Content-Length: banana\r\n\r\n{}"));
        using var answer = JsonDocument.Parse(await ReadFramedAsync(client.Stream));
        Assert.Equal(-32700, answer.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        await client.AssertClosedAsync();
    }

    [Fact]
    public async Task ContentLength_DeclaredTooLarge_RefusedBeforeTheBodyArrives()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxMessageSize = 1024);
        await using var client = await server.ConnectAsync();
        await client.SendRawAsync(Encoding.ASCII.GetBytes("Content-Length: 100000000\r\n\r\n{"));
        using var answer = JsonDocument.Parse(await ReadFramedAsync(client.Stream));
        Assert.Equal(RouterErrorCodes.MessageTooLarge, answer.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        await client.AssertClosedAsync();
    }
}
