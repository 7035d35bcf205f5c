using System.Text.Json;

namespace JsonRpc.Server.Tests;

public sealed class BatchTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Batch_AcrossProviders_GetsOneResponseWithEveryAnswer()
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await using var adder = await server.ConnectRegisteredAsync("adder", "add");
        await using var muller = await server.ConnectRegisteredAsync("muller", "mul");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync("""
            [{"jsonrpc":"2.0","id":1,"method":"add","params":[1,2]},
             {"jsonrpc":"2.0","id":"m","method":"mul","params":[3,4]},
             {"jsonrpc":"2.0","method":"add","params":[0,0]},
             {"jsonrpc":"2.0","id":3,"method":"missing"},
             {"jsonrpc":"2.0","id":4,"method":"keepAlive"},
             {"jsonrpc":"1.0","id":5,"method":"add"},
             7]
            """.ReplaceLineEndings(""));

        // The muller answers first, the adder later: the batch waits for both.
        await muller.ServeOneAsync("12");
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
        var addRequest = await adder.ReadAsync();
        var addNotification = await adder.ReadAsync();
        Assert.False(addNotification.TryGetProperty("id", out _));
        await adder.SendAsync($$"""{"jsonrpc":"2.0","id":{{addRequest.GetProperty("id").GetRawText()}},"result":3}""");

        var reply = await caller.ReadAsync();
        Assert.Equal(JsonValueKind.Array, reply.ValueKind);
        var byId = reply.EnumerateArray().ToDictionary(e => e.GetProperty("id").GetRawText());
        Assert.Equal(6, byId.Count);
        Answer.IsResult(byId["1"], "3");
        Answer.IsResult(byId["\"m\""], "12");
        Answer.IsError(byId["3"], -32601);
        Answer.IsResult(byId["4"], "true");
        Answer.IsError(byId["5"], -32600);
        Answer.IsError(byId["null"], -32600);
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(50));
    }

    [Fact]
    public async Task Batch_AllNotifications_GetsNothing()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "log");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync("""[{"jsonrpc":"2.0","method":"log","params":[1]},{"jsonrpc":"2.0","method":"log","params":[2]},{"jsonrpc":"2.0","method":"nobody"}]""");
        Assert.Equal("""{"jsonrpc":"2.0","method":"log","params":[1]}""", await provider.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","method":"log","params":[2]}""", await provider.ReadLineAsync());
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(150));
    }

    [Fact]
    public async Task Batch_ProviderDropsMidBatch_BatchStillCompletes()
    {
        await using var server = await RouterServer.StartAsync();
        var dropper = await server.ConnectRegisteredAsync("d", "a");
        await using var keeper = await server.ConnectRegisteredAsync("k", "b");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync("""[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]""");
        await dropper.ReadAsync();
        await keeper.ServeOneAsync("\"b\"");
        await dropper.DisposeAsync();

        var reply = await caller.ReadAsync();
        var byId = reply.EnumerateArray().ToDictionary(e => e.GetProperty("id").GetInt32());
        Answer.IsError(byId[1], RouterErrorCodes.ProviderDisconnected);
        Answer.IsResult(byId[2], "\"b\"");
    }

    [Theory]
    [InlineData("[]", -32600)]
    [InlineData("[1,2", -32700)]
    public async Task Batch_EmptyOrBroken_IsOneError(string batch, int code)
    {
        await using var server = await RouterServer.StartAsync();
        await using var caller = await server.ConnectAsync();
        await caller.SendAsync(batch);
        var reply = await caller.ReadAsync();
        Assert.Equal(JsonValueKind.Object, reply.ValueKind);
        Answer.IsError(reply, code);
    }

    [Fact]
    public async Task Batch_OfAnswers_FromProvider_IsRoutedAndGetsNothing()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "w");
        await using var caller = await server.ConnectAsync();
        await caller.SendAsync(LineClient.Request(1, "w"));
        await caller.SendAsync(LineClient.Request(2, "w"));
        var r1 = (await provider.ReadAsync()).GetProperty("id").GetRawText();
        var r2 = (await provider.ReadAsync()).GetProperty("id").GetRawText();

        await provider.SendAsync($$"""[{"jsonrpc":"2.0","id":{{r2}},"result":"two"},{"jsonrpc":"2.0","id":{{r1}},"result":"one"}]""");
        var first = await caller.ReadAsync();
        var second = await caller.ReadAsync();
        Assert.Equal("two", first.GetProperty("result").GetString());
        Assert.Equal(2, first.GetProperty("id").GetInt32());
        Assert.Equal("one", second.GetProperty("result").GetString());
        await provider.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
    }

    [Fact]
    public async Task Batch_RepliesBeyondOutboundLimit_AreOneErrorAndConnectionStays()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = 256 * 1024;
        }, output);
        await using var caller = await server.ConnectAsync();

        // 32K invalid elements in 64 KB: each answered with a ~150 byte error, ~5 MB in all, far over the limit.
        var batch = new System.Text.StringBuilder("[1");
        while (batch.Length < (64 * 1024) - 8)
        {
            batch.Append(",1");
        }

        await caller.SendAsync(batch.Append(']').ToString());
        var reply = await caller.ReadAsync();
        Assert.Equal(JsonValueKind.Object, reply.ValueKind);
        Answer.IsError(reply, RouterErrorCodes.MessageTooLarge);
        Assert.Equal(JsonValueKind.Null, reply.GetProperty("id").ValueKind);
        Answer.IsResult(await caller.CallAsync("keepAlive"), "true");

        // A batch whose replies fit is answered as before.
        await caller.SendAsync("""[1,{"jsonrpc":"2.0","id":2,"method":"keepAlive"}]""");
        Assert.Equal(2, (await caller.ReadAsync()).GetArrayLength());
    }

    [Fact]
    public async Task Batch_RoutedAnswersBeyondOutboundLimit_AreOneErrorAndProviderStays()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = 128 * 1024;
        }, output);
        await using var provider = await server.ConnectRegisteredAsync("p", "big");
        await using var caller = await server.ConnectAsync();

        // Four answers of 40 KB each: every one within the message size, together over the outbound limit.
        await caller.SendAsync("[" + string.Join(',', Enumerable.Range(1, 4).Select(i => LineClient.Request(i, "big"))) + "]");
        var result = $"\"{new string('r', 40 * 1024)}\"";
        for (var i = 0; i < 4; i++)
        {
            await provider.ServeOneAsync(result);
        }

        var reply = await caller.ReadAsync();
        Assert.Equal(JsonValueKind.Object, reply.ValueKind);
        Answer.IsError(reply, RouterErrorCodes.MessageTooLarge);
        Answer.IsResult(await provider.CallAsync("keepAlive"), "true");
        Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
        Assert.Equal(0, server.Router.GetStats().PendingCalls);
    }
}
