using System.Net.Sockets;
using System.Text;
using JsonRpc.Server.Tests.Infrastructure;
using JsonRpc.Testing;

namespace JsonRpc.Server.Tests;

public sealed class BadInputTests(SharedRouterFixture fixture) : IClassFixture<SharedRouterFixture>
{
    private RouterHost Server => fixture.Server;

    [Theory]
    [InlineData("hello", -32700)]
    [InlineData("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", -32700)]
    [InlineData("{\"jsonrpc\":\"2.0\",\"id\":1}", -32600)]
    [InlineData("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", -32600)]
    [InlineData("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"method\":\"b\"}", -32600)]
    [InlineData("{\"id\":1,\"method\":\"keepAlive\"}", -32600)]
    [InlineData("42", -32600)]
    [InlineData("{} {}", -32700)]
    public async Task Garbage_GetsErrorAndConnectionStays(string input, int code)
    {
        var server = Server;
        await using var client = await server.ConnectAsync();
        await client.SendAsync(input);
        Answer.IsError(await client.ReadAsync(), code);
        Answer.IsResult(await client.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task InvalidRequest_WithReadableId_EchoesTheId()
    {
        var server = Server;
        await using var client = await server.ConnectAsync();
        await client.SendAsync("""{"jsonrpc":"2.0","id":"q7","method":5}""");
        var answer = await client.ReadAsync();
        Answer.IsError(answer, -32600);
        Assert.Equal("q7", answer.GetProperty("id").GetString());
    }

    [Fact]
    public async Task InvalidUtf8_IsParseErrorAndConnectionStays()
    {
        var server = Server;
        await using var client = await server.ConnectAsync();
        var bytes = Encoding.UTF8.GetBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ab\"}\n");
        bytes[Array.IndexOf(bytes, (byte)'b')] = 0xFF;
        await client.SendRawAsync(bytes);
        Answer.IsError(await client.ReadAsync(), -32700);
        Answer.IsResult(await client.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task HalfMessage_ThenEndOfStream_GetsParseErrorAndClose()
    {
        var server = Server;
        await using var other = await server.ConnectAsync();
        await using var client = await server.ConnectAsync();
        await client.SendRawAsync(Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","id":1,"met"""));
        client.Socket.Shutdown(SocketShutdown.Send);

        Answer.IsError(await client.ReadAsync(), -32700);
        await client.AssertClosedAsync();
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task ConnectThenClose_WithoutSending_GetsNothing()
    {
        await using var client = await Server.ConnectAsync();
        client.Socket.Shutdown(SocketShutdown.Send);
        Assert.Null(await client.ReadLineAsync());
    }

    [Fact]
    public async Task BlankLinesAndCrLf_AreTolerated()
    {
        var server = Server;
        await using var client = await server.ConnectAsync();
        await client.SendRawAsync(Encoding.UTF8.GetBytes("\n\r\n  \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"keepAlive\"}\r\n"));
        Answer.IsResult(await client.ReadAsync(), "true");
    }

    [Fact]
    public async Task MessageSplitAcrossManyWrites_IsReadWhole()
    {
        var server = Server;
        await using var client = await server.ConnectAsync();
        var bytes = Encoding.UTF8.GetBytes(LineClient.Request(9, "keepAlive") + "\n" + LineClient.Request(10, "keepAlive") + "\n");
        foreach (var b in bytes)
        {
            await client.SendRawAsync([b]);
        }

        Assert.Equal(9, (await client.ReadAsync()).GetProperty("id").GetInt32());
        Assert.Equal(10, (await client.ReadAsync()).GetProperty("id").GetInt32());
    }

    [Fact]
    public async Task MisbehavingClients_DoNotDisturbRoutedCalls()
    {
        var server = Server;
        await using var provider = await server.ConnectRegisteredAsync("p-misbehaving", "echo-misbehaving");
        var connections = server.Router.GetStats().Connections;
        await using var caller = await server.ConnectAsync();

        var vandals = new List<LineClient>();
        for (var i = 0; i < 5; i++)
        {
            var v = await server.ConnectAsync();
            await v.SendRawAsync(Encoding.UTF8.GetBytes("garbage\n{\"half"));
            vandals.Add(v);
        }

        await caller.SendAsync(LineClient.Request("ok", "echo-misbehaving"));
        await provider.ServeOneAsync("\"fine\"");
        Answer.IsResult(await caller.ReadAsync(), "\"fine\"");
        foreach (var v in vandals)
        {
            v.Socket.LingerState = new LingerOption(true, 0);
            await v.DisposeAsync();
        }

        await Eventually.TrueAsync(() => server.Router.GetStats().Connections <= connections + 1, "the vandals are gone");
        await caller.SendAsync(LineClient.Request("ok2", "echo-misbehaving"));
        await provider.ServeOneAsync("\"still\"");
        Answer.IsResult(await caller.ReadAsync(), "\"still\"");
    }
}
