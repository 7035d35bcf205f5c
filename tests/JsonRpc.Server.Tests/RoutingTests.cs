using System.Globalization;
using System.Text;
using System.Text.Json;

namespace JsonRpc.Server.Tests;

public sealed class RoutingTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData("\"abc\"")]
    [InlineData("\"\\u0041\\\"q\"")]
    [InlineData("7")]
    [InlineData("-0")]
    [InlineData("1.50")]
    [InlineData("1e3")]
    [InlineData("123456789012345678901234567890")]
    [InlineData("null")]
    public async Task RoutedCall_AnyId_IsRewrittenForProviderAndEchoedExactly(string id)
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await using var provider = await server.ConnectRegisteredAsync("p", "echo");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{id}}},"method":"echo","params":{"x":[1,2,{"y":"z"}]}}""");
        var forwarded = await provider.ReadLineAsync();
        using var request = JsonDocument.Parse(forwarded!);
        Assert.Equal(JsonValueKind.Number, request.RootElement.GetProperty("id").ValueKind);
        Assert.Equal("""{"jsonrpc":"2.0","id":ID,"method":"echo","params":{"x":[1,2,{"y":"z"}]}}""",
            System.Text.RegularExpressions.Regex.Replace(forwarded!, "\"id\":[0-9]+", "\"id\":ID"));

        await provider.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{request.RootElement.GetProperty("id").GetRawText()}}},"result":{"sum": 3 ,"s":"\u00e9"}}""");
        Assert.Equal($$$"""{"jsonrpc":"2.0","id":{{{id}}},"result":{"sum": 3 ,"s":"\u00e9"}}""", await caller.ReadLineAsync());
    }

    [Fact]
    public async Task RoutedCall_ProviderError_IsPassedOnUntouched()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "fail");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync(LineClient.Request("c1", "fail"));
        var request = await provider.ReadAsync();
        await provider.SendAsync($$"""{"jsonrpc":"2.0","error":{"code":42,"message":"nope","data":[1]},"id":{{request.GetProperty("id").GetRawText()}}}""");
        Assert.Equal("""{"jsonrpc":"2.0","error":{"code":42,"message":"nope","data":[1]},"id":"c1"}""", await caller.ReadLineAsync());
    }

    [Fact]
    public async Task UnknownMethod_IsMethodNotFound()
    {
        await using var server = await RouterServer.StartAsync();
        await using var caller = await server.ConnectAsync();
        var answer = await caller.CallAsync("no_such_method", "[1]");
        Answer.IsError(answer, -32601);
    }

    [Fact]
    public async Task SeveralProviders_CallsGoToTheLeastBusy()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a", "work");
        await using var b = await server.ConnectRegisteredAsync("b", "work");
        await using var caller = await server.ConnectAsync();

        // Four calls, none answered: two each.
        for (var i = 0; i < 4; i++)
        {
            await caller.SendAsync(LineClient.Request(i, "work"));
        }

        var toA = new List<JsonElement> { await a.ReadAsync(), await a.ReadAsync() };
        var toB = new List<JsonElement> { await b.ReadAsync(), await b.ReadAsync() };
        await a.AssertSilentAsync(TimeSpan.FromMilliseconds(100));

        // a answers both: a is now idle while b still has two, so the next two calls go to a.
        foreach (var request in toA)
        {
            await a.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"a"}""");
        }

        Assert.Equal("a", (await caller.ReadAsync()).GetProperty("result").GetString());
        Assert.Equal("a", (await caller.ReadAsync()).GetProperty("result").GetString());
        await caller.SendAsync(LineClient.Request(10, "work"));
        await caller.SendAsync(LineClient.Request(11, "work"));
        await a.ServeOneAsync("\"a\"");
        await a.ServeOneAsync("\"a\"");
        await b.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
        foreach (var request in toB)
        {
            await b.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"b"}""");
        }

        var ids = new HashSet<int>();
        for (var i = 0; i < 4; i++)
        {
            ids.Add((await caller.ReadAsync()).GetProperty("id").GetInt32());
        }

        Assert.Equal(4, ids.Count);
        Assert.Contains(10, ids);
        Assert.Contains(11, ids);
    }

    [Fact]
    public async Task SeveralProviders_LoadIsSpread()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a", "work");
        await using var b = await server.ConnectRegisteredAsync("b", "work");
        await using var caller = await server.ConnectAsync();

        for (var i = 0; i < 20; i++)
        {
            await caller.SendAsync(LineClient.Request(i, "work"));
        }

        // Unanswered calls must split evenly: least outstanding picks the idler one each time.
        for (var i = 0; i < 10; i++)
        {
            await a.ReadAsync();
            await b.ReadAsync();
        }

        await a.AssertSilentAsync(TimeSpan.FromMilliseconds(50));
        await b.AssertSilentAsync(TimeSpan.FromMilliseconds(50));
        Assert.Equal(20, server.Router.GetStats().PendingCalls);
    }

    [Fact]
    public async Task ProviderDisconnects_WaitingCallersFailAtOnce()
    {
        await using var server = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMinutes(1));
        var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller1 = await server.ConnectAsync();
        await using var caller2 = await server.ConnectAsync();

        await caller1.SendAsync(LineClient.Request("one", "slow"));
        await caller2.SendAsync(LineClient.Request(2, "slow"));
        await provider.ReadAsync();
        await provider.ReadAsync();

        // The callers hear of it at once, not by the call timeout (30 s): the error code tells which.
        await provider.DisposeAsync(); // drops mid-call
        var answer1 = await caller1.ReadAsync();
        var answer2 = await caller2.ReadAsync();
        Answer.IsError(answer1, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal("one", answer1.GetProperty("id").GetString());
        Answer.IsError(answer2, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal(2, answer2.GetProperty("id").GetInt32());
        Assert.Equal(0, server.Router.GetStats().PendingCalls);

        // The method went with its provider.
        Answer.IsError(await caller1.CallAsync("slow"), -32601);
    }

    [Fact]
    public async Task CallTimeout_FailsCallerAndDropsLateAnswer()
    {
        await using var server = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300), output);
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller = await server.ConnectAsync();

        var started = DateTime.UtcNow;
        await caller.SendAsync(LineClient.Request(5, "slow"));
        var request = await provider.ReadAsync();
        var answer = await caller.ReadAsync();
        var elapsed = DateTime.UtcNow - started;
        Answer.IsError(answer, RouterErrorCodes.CallTimeout);
        Assert.Equal(5, answer.GetProperty("id").GetInt32());
        Assert.True(elapsed >= TimeSpan.FromMilliseconds(250), $"timed out after {elapsed.TotalMilliseconds:N0} ms, before its 300 ms"); // only the lower bound is the router's

        // The provider is told to stop working on it.
        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(request.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());

        // The late answer is dropped and counted; the caller hears nothing more.
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":1}""");
        await Eventually.TrueAsync(() => server.Router.GetStats().AnswersDropped == 1, "the late answer is counted");
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
        var stats = server.Router.GetStats();
        Assert.Equal(1, stats.Timeouts);
        Assert.Equal(0, stats.PendingCalls);

        // The provider still works.
        await caller.SendAsync(LineClient.Request(6, "slow"));
        await provider.ServeOneAsync("2");
        Answer.IsResult(await caller.ReadAsync(), "2");
    }

    [Fact]
    public async Task ForeignAnswer_FromProviderThatWasNotAsked_IsDropped()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a", "work");
        await using var b = await server.ConnectRegisteredAsync("b", "other");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync(LineClient.Request(1, "work"));
        var request = await a.ReadAsync();
        var routerId = request.GetProperty("id").GetRawText();

        // b answers a call that went to a, and an id nobody used, and a string id: all dropped.
        await b.SendAsync($$"""{"jsonrpc":"2.0","id":{{routerId}},"result":"forged"}""");
        await b.SendAsync("""{"jsonrpc":"2.0","id":999999,"result":"forged"}""");
        await b.SendAsync("""{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"forged"}}""");
        await Eventually.TrueAsync(() => server.Router.GetStats().AnswersDropped == 3, "three answers dropped");
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(100));

        await a.SendAsync($$"""{"jsonrpc":"2.0","id":{{routerId}},"result":"real"}""");
        Assert.Equal("real", (await caller.ReadAsync()).GetProperty("result").GetString());
    }

    [Fact]
    public async Task NotificationToMethod_GoesToOneProvider()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a", "log");
        await using var b = await server.ConnectRegisteredAsync("b", "log");
        await using var sender = await server.ConnectAsync();

        await sender.SendAsync(LineClient.Notification("log", """["one"]"""));
        await sender.SendAsync(LineClient.Notification("log", """["two"]"""));
        var received = new[] { await a.ReadLineAsync(), await b.ReadLineAsync() };
        Assert.Contains("""{"jsonrpc":"2.0","method":"log","params":["one"]}""", received);
        Assert.Contains("""{"jsonrpc":"2.0","method":"log","params":["two"]}""", received);
        await a.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
        await b.AssertSilentAsync(TimeSpan.FromMilliseconds(50));
        await sender.AssertSilentAsync(TimeSpan.FromMilliseconds(50));
    }

    [Fact]
    public async Task NotificationToUnknownMethod_GetsNothing()
    {
        await using var server = await RouterServer.StartAsync();
        await using var sender = await server.ConnectAsync();
        await sender.SendAsync(LineClient.Notification("nobody"));
        await sender.AssertSilentAsync(TimeSpan.FromMilliseconds(150));
        Answer.IsResult(await sender.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task MaxPendingCalls_ExtraCallIsRefused()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxPendingCallsPerConnection = 3);
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var caller = await server.ConnectAsync();

        for (var i = 0; i < 4; i++)
        {
            await caller.SendAsync(LineClient.Request(i, "work"));
        }

        var refused = await caller.ReadAsync();
        Answer.IsError(refused, RouterErrorCodes.TooManyPendingCalls);
        Assert.Equal(3, refused.GetProperty("id").GetInt32());

        // Answering one frees a slot.
        await provider.ServeOneAsync("0");
        Assert.Equal(0, (await caller.ReadAsync()).GetProperty("id").GetInt32());
        await caller.SendAsync(LineClient.Request(4, "work"));
        await provider.ReadAsync();
        await provider.ReadAsync();
        var forwarded = await provider.ReadAsync();
        Assert.Equal("work", forwarded.GetProperty("method").GetString());
    }

    [Fact]
    public async Task OneWriteOfCallsToSeveralProviders_EachGetsItsCallsInOrder_AndEveryAnswerComesBack()
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await OneWriteOfCallsToSeveralProvidersAsync(server.Port);
    }

    /// <summary>
    /// One read brings 450 calls for three providers (about 300 KB each, past what a router with inline I/O holds back
    /// until the read is handled) and events between them: every provider must get its calls in order, the subscriber
    /// its events, and the caller every answer once. Also run against the standalone router with inline I/O.
    /// </summary>
    internal static async Task OneWriteOfCallsToSeveralProvidersAsync(int port)
    {
        var providers = new List<LineClient>();
        for (var p = 0; p < 3; p++)
        {
            var provider = await LineClient.ConnectAsync(port);
            await provider.RegisterAsync("p" + p);
            await provider.ProvideAsync("work" + p);
            providers.Add(provider);
        }

        await using var subscriber = await LineClient.ConnectAsync(port);
        await subscriber.RegisterAsync("s");
        await subscriber.SubscribeAsync("tick");
        await using var caller = await LineClient.ConnectAsync(port);
        var filler = new string('x', 2000);
        var batch = new StringBuilder();
        const int PerProvider = 150;
        for (var i = 0; i < PerProvider; i++)
        {
            for (var p = 0; p < 3; p++)
            {
                batch.Append(LineClient.Request($"c{p}-{i}", "work" + p, $$"""{"n":{{i}},"filler":"{{filler}}"}""")).Append('\n');
            }

            if (i % 50 == 0)
            {
                batch.Append(LineClient.Notification("tick", $$"""{"n":{{i}}}""")).Append('\n');
            }
        }

        var serving = providers.Select((provider, p) => Task.Run(async () =>
        {
            for (var i = 0; i < PerProvider; i++)
            {
                var request = await provider.ReadAsync();
                Assert.Equal(i, request.GetProperty("params").GetProperty("n").GetInt32()); // in the order sent
                await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":{{p * 1000 + i}}}""");
            }
        })).ToArray();
        await caller.SendRawAsync(Encoding.UTF8.GetBytes(batch.ToString()));

        var seen = new HashSet<string>();
        for (var k = 0; k < 3 * PerProvider; k++)
        {
            var answer = await caller.ReadAsync();
            var id = answer.GetProperty("id").GetString()!;
            Assert.True(seen.Add(id), $"{id} answered twice");
            var parts = id[1..].Split('-');
            Assert.Equal(int.Parse(parts[0], CultureInfo.InvariantCulture) * 1000 + int.Parse(parts[1], CultureInfo.InvariantCulture),
                answer.GetProperty("result").GetInt32());
        }

        await Task.WhenAll(serving).WaitAsync(LineClient.ReadTimeout);
        for (var i = 0; i < PerProvider; i += 50)
        {
            var tick = await subscriber.ReadAsync();
            Assert.Equal(i, tick.GetProperty("params").GetProperty("n").GetInt32());
        }

        foreach (var provider in providers)
        {
            await provider.DisposeAsync();
        }
    }
}
