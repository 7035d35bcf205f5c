using System.Collections.Concurrent;
using System.Text.Json;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

/// <summary>Methods and events the client serves to a plain peer that calls it (no router involved).</summary>
public sealed class ServingTests : IAsyncLifetime
{
    private readonly TestServer _server = new TestServer().Install();
    private JsonRpcClient _client = null!;

    public async Task InitializeAsync()
    {
        _client = await JsonRpcClient.ConnectAsync("127.0.0.1", _server.Port).Within();
        await _server.WaitForConnectionsAsync(1, Bounded.Timeout);
        await Eventually.TrueAsync(() => _server.ConnectionCount == 1, "server sees the connection");
    }

    public async Task DisposeAsync()
    {
        await _client.DisposeAsync();
        await _server.DisposeAsync();
    }

    [Fact]
    public async Task AddMethod_PeerCalls_GetsTypedResult()
    {
        var ctx = TestJsonContext.Default;
        _client.AddMethod("mul", "x", "y", (int x, int y) => x * y, ctx.Int32, ctx.Int32, ctx.Int32);
        var answer = await _server.CallClientAsync("mul", "[6,7]");
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":42}", answer);
        answer = await _server.CallClientAsync("mul", "{\"y\":2,\"x\":5}");
        Assert.Contains("\"result\":10", answer);
    }

    [Fact]
    public async Task AddMethod_AsyncHandlerGetsToken_Answers()
    {
        var ctx = TestJsonContext.Default;
        var gotToken = false;
        _client.AddMethod("slow", async (Point p, CancellationToken ct) =>
        {
            gotToken = ct.CanBeCanceled;
            await Task.Delay(20, ct);
            return p.X + p.Y;
        }, ctx.Point, ctx.Int32);
        var answer = await _server.CallClientAsync("slow", "{\"x\":1,\"y\":2}");
        Assert.Contains("\"result\":3", answer);
        Assert.True(gotToken);
    }

    [Fact]
    public async Task AddMethod_HandlerThrows_AnswersErrorAndClientKeepsRunning()
    {
        var ctx = TestJsonContext.Default;
        _client.AddMethod<int>("boom", () => throw new InvalidOperationException("kaput"), ctx.Int32);
        _client.AddMethod<int>("custom", () => throw new JsonRpcMethodException(7, "seven"), ctx.Int32);

        var answer = await _server.CallClientAsync("boom", null);
        Assert.Contains("\"code\":-32603", answer);
        Assert.Contains("kaput", answer);
        Assert.Contains("\"code\":7", await _server.CallClientAsync("custom", null));
        Assert.Equal(JsonRpcClientState.Connected, _client.State);
        Assert.Equal(2, await _client.CallAsync<int>("add", new[] { 1, 1 }).Within());
    }

    [Fact]
    public async Task AddMethod_ParamsDoNotBind_AnswersInvalidParams()
    {
        var ctx = TestJsonContext.Default;
        _client.AddMethod("mul", "x", "y", (int x, int y) => x * y, ctx.Int32, ctx.Int32, ctx.Int32);
        Assert.Contains("\"code\":-32602", await _server.CallClientAsync("mul", "[\"a\",\"b\"]"));
        Assert.Contains("\"code\":-32602", await _server.CallClientAsync("mul", "[1]"));
    }

    [Fact]
    public async Task IncomingCall_UnknownMethod_AnswersMethodNotFound()
    {
        Assert.Contains("\"code\":-32601", await _server.CallClientAsync("missing", null));
        _client.AddMethod("other", (int x) => x);
        Assert.Contains("\"code\":-32601", await _server.CallClientAsync("missing", "[1]"));
    }

    [Fact]
    public async Task AddMethod_Delegate_BindsByPositionAndName()
    {
        _client.AddMethod("concat", (string a, int n) => a + n);
        Assert.Contains("\"result\":\"x5\"", await _server.CallClientAsync("concat", "[\"x\",5]"));
        Assert.Contains("\"result\":\"y6\"", await _server.CallClientAsync("concat", "{\"a\":\"y\",\"n\":6}"));
    }

    [Fact]
    public async Task AddRawMethod_GetsParamsExactly()
    {
        _client.AddRawMethod("raw", (p, _) => ValueTask.FromResult(RawJson.Parse("{\"got\":" + p + "}")));
        Assert.Contains("\"result\":{\"got\":[1, 2]}", await _server.CallClientAsync("raw", "[1, 2]"));
    }

    [Fact]
    public async Task AddMethod_BlockingHandlerCallsBack_DoesNotDeadlock()
    {
        var ctx = TestJsonContext.Default;
        // The handler makes a blocking call over the same connection: handlers run off the read loop.
        _client.AddMethod("nested", () => _client.Call<int>("add", new[] { 20, 22 }), ctx.Int32);
        Assert.Contains("\"result\":42", await _server.CallClientAsync("nested", null));
    }

    [Fact]
    public async Task AddMethod_HandlerBlocksUntilALaterCallReadWithIt_BothAnswered()
    {
        // Calls read together start one after another on one pool thread; one whose handler blocks that thread must
        // not keep the calls read after it from running (the watch hands them to the pool within a few milliseconds).
        // Here the first call waits for the second: run strictly in turn, it would wait its full 20 s and say so.
        using var secondRan = new ManualResetEventSlim();
        _client.AddMethod("first", () => secondRan.Wait(TimeSpan.FromSeconds(20)) ? "released" : "timed out", TestJsonContext.Default.String);
        _client.AddMethod("second", () =>
        {
            secondRan.Set();
            return "ran";
        }, TestJsonContext.Default.String);

        var answers = await _server.CallClientTogetherAsync(("first", null), ("second", null));

        Assert.Contains("\"result\":\"released\"", answers[0]);
        Assert.Contains("\"result\":\"ran\"", answers[1]);
    }

    [Fact]
    public async Task AddMethod_CallsReadTogetherThatEachTakeAFewMilliseconds_AreNotAllRunInTurn()
    {
        // A batch still running a whole watch period after the watch first saw it hands what is left to the pool, even
        // though every handler finishes within a period: 64 handlers of about 1 ms each must not all wait in one line.
        var running = 0;
        var most = 0;
        _client.AddMethod("slow", () =>
        {
            var now = Interlocked.Increment(ref running);
            for (var seen = Volatile.Read(ref most); now > seen && Interlocked.CompareExchange(ref most, now, seen) != seen; seen = Volatile.Read(ref most))
            {
            }

            Thread.Sleep(1);
            Interlocked.Decrement(ref running);
            return 1;
        }, TestJsonContext.Default.Int32);

        var answers = await _server.CallClientTogetherAsync(Enumerable.Repeat(("slow", (string?)null), 64).ToArray());

        Assert.All(answers, answer => Assert.Contains("\"result\":1", answer));
        Assert.True(Volatile.Read(ref most) >= 2, "the 64 handlers ran strictly one after another");
    }

    [Fact]
    public async Task AddMethod_ManyCallsReadTogether_EachAnsweredOnce()
    {
        // Sixty-four and more calls in one read are run in batches of 64: every one is answered, with its own result.
        var ran = new ConcurrentDictionary<int, int>();
        _client.AddMethod("square", (int[] p) =>
        {
            ran.AddOrUpdate(p[0], 1, (_, count) => count + 1);
            return p[0] * p[0];
        }, TestJsonContext.Default.Int32Array, TestJsonContext.Default.Int32);

        var answers = await _server.CallClientTogetherAsync(Enumerable.Range(0, 150).Select(n => ("square", (string?)$"[{n}]")).ToArray());

        for (var n = 0; n < 150; n++)
        {
            Assert.Contains($"\"result\":{n * n}}}", answers[n]);
        }

        Assert.Equal(150, ran.Count);
        Assert.All(ran.Values, count => Assert.Equal(1, count));
    }

    [Fact]
    public async Task RemoveMethodAsync_MethodNoLongerServed()
    {
        _client.AddMethod("gone", () => 1);
        Assert.Contains("\"result\":1", await _server.CallClientAsync("gone", null));
        Assert.True(await _client.RemoveMethodAsync("gone").Within());
        Assert.False(await _client.RemoveMethodAsync("gone").Within());
        Assert.Contains("-32601", await _server.CallClientAsync("gone", null));
    }

    [Fact]
    public async Task SubscribeAsync_PlainServerWithoutSubscribe_ThrowsRemoteError()
    {
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => _client.SubscribeAsync("tick", _ => { }).Within());
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ex.Code);
        Assert.Empty(_client.Subscriptions);
    }

    [Fact]
    public async Task SubscribeAsync_SecondHandlerWhileFirstSubscribeFails_BothThrow()
    {
        // The second call finds the event being subscribed: it must not report success before the peer agreed.
        var first = _client.SubscribeAsync("tick", _ => { });
        var second = _client.SubscribeAsync("tick", _ => { });
        var ex1 = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => first.Within());
        var ex2 = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => second.Within());
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ex1.Code);
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ex2.Code);
        Assert.Empty(_client.Subscriptions);
    }

    [Fact]
    public async Task SubscribeAsync_EventsArrive_InOrderToEveryHandler()
    {
        // A plain peer that accepts subscribe, so the events path is tested without the router.
        _server.Dispatcher.AddRaw("subscribe", static (_, _) => ValueTask.FromResult(RawJson.Parse("true")));
        var raw = new ConcurrentQueue<string>();
        var typed = new ConcurrentQueue<int>();
        await _client.SubscribeAsync("tick", p => raw.Enqueue(p.ToString())).Within();
        await _client.SubscribeAsync("tick", TestJsonContext.Default.Int32, (int n) => typed.Enqueue(n)).Within();
        Assert.Single(_server.Received, m => m.Contains("\"subscribe\"")); // one router subscription per event

        for (var i = 0; i < 20; i++)
        {
            await _server.SendToAllAsync($"{{\"jsonrpc\":\"2.0\",\"method\":\"tick\",\"params\":[{i}]}}");
        }

        await Eventually.TrueAsync(() => typed.Count == 20 && raw.Count == 20, "all events handled");
        Assert.Equal(Enumerable.Range(0, 20), typed);
        Assert.Equal("[0]", raw.First());
    }

    [Fact]
    public async Task SubscribeAsync_HandlerThrows_LaterEventsStillArrive()
    {
        _server.Dispatcher.AddRaw("subscribe", static (_, _) => ValueTask.FromResult(RawJson.Parse("true")));
        var seen = new ConcurrentQueue<Point?>();
        await _client.SubscribeAsync("moved", TestJsonContext.Default.Point, (Point? p) =>
        {
            seen.Enqueue(p);
            if (p!.X == 0)
            {
                throw new InvalidOperationException("first one fails");
            }
        }).Within();

        await _server.SendToAllAsync("{\"jsonrpc\":\"2.0\",\"method\":\"moved\",\"params\":{\"x\":0,\"y\":0}}");
        await _server.SendToAllAsync("{\"jsonrpc\":\"2.0\",\"method\":\"moved\",\"params\":{\"x\":1,\"y\":2}}");
        await Eventually.TrueAsync(() => seen.Count == 2, "both events");
        Assert.Equal(new Point(1, 2), seen.Last());
    }

    [Fact]
    public async Task PublishAsync_SendsNotificationNamedAfterEvent()
    {
        await _client.PublishAsync("news", new { headline = "hi" }).Within();
        await _client.PublishAsync("count", 3, TestJsonContext.Default.Int32).Within();
        await Eventually.TrueAsync(() => _server.Received.Count >= 2, "published");
        Assert.Contains("{\"jsonrpc\":\"2.0\",\"method\":\"news\",\"params\":{\"headline\":\"hi\"}}", _server.Received);
        Assert.Contains("{\"jsonrpc\":\"2.0\",\"method\":\"count\",\"params\":[3]}", _server.Received);
        _ = JsonDocument.Parse(_server.Received.First()); // valid JSON
    }

    [Fact]
    public async Task MaxConcurrentIncomingCalls_CallsBeyondIt_AreAnsweredServerBusyAtOnce()
    {
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, new JsonRpcClientOptions { MaxConcurrentIncomingCalls = 2 }).Within();
        await server.WaitForConnectionsAsync(1, Bounded.Timeout);
        await Eventually.TrueAsync(() => server.ConnectionCount == 1, "server sees the connection");
        var release = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var running = 0;
        client.AddMethod("hold", async (int[] n, CancellationToken ct) =>
        {
            Interlocked.Increment(ref running);
            return n[0] + await release.Task.WaitAsync(ct);
        }, TestJsonContext.Default.Int32Array, TestJsonContext.Default.Int32);

        var first = server.CallClientAsync("hold", "[1]");
        var second = server.CallClientAsync("hold", "[2]");
        await Eventually.TrueAsync(() => Volatile.Read(ref running) == 2, "two calls are running");

        // A third is refused without waiting for the two, and without running the handler.
        var third = await server.CallClientAsync("hold", "[3]");
        Assert.Contains("\"code\":-32000", third, StringComparison.Ordinal);
        Assert.Contains("Server busy", third, StringComparison.Ordinal);
        Assert.Equal(2, Volatile.Read(ref running));

        release.SetResult(10);
        Assert.Contains("\"result\":11", await first, StringComparison.Ordinal);
        Assert.Contains("\"result\":12", await second, StringComparison.Ordinal);

        // Once they are done there is room again.
        Assert.Contains("\"result\":14", await server.CallClientAsync("hold", "[4]"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SubscribeAsync_HandlerFarBehind_DropsNewEventsAndClientKeepsWorking()
    {
        var server = new TestServer().Install();
        server.Dispatcher.AddRaw("subscribe", static (_, _) => ValueTask.FromResult(RawJson.Parse("true")));
        var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, new JsonRpcClientOptions { EventQueueCapacity = 2 }).Within();
        var release = new TaskCompletionSource();
        var seen = 0;
        await client.SubscribeAsync("burst", async (_, _) =>
        {
            Interlocked.Increment(ref seen);
            await release.Task;
        }).Within();

        try
        {
            for (var i = 0; i < 20; i++)
            {
                await server.SendToAllAsync($"{{\"jsonrpc\":\"2.0\",\"method\":\"burst\",\"params\":[{i}]}}");
            }

            await Eventually.TrueAsync(() => Volatile.Read(ref seen) == 1, "the first event is being handled");
            Assert.Equal(3, await client.CallAsync<int>("add", new[] { 1, 2 }).Within()); // the read loop never waited
        }
        finally
        {
            release.SetResult();
        }

        await Eventually.TrueAsync(() => Volatile.Read(ref seen) >= 2, "the queued events ran");
        await Task.Delay(100); // not synchronisation: a window in which a wrongly kept fourth event would also run

        // The queue's capacity, plus one if the handler had taken the first event before the burst filled the queue:
        // of 20 events at most 3 ran, the rest were dropped.
        Assert.InRange(Volatile.Read(ref seen), 2, 3);
        Assert.False(await client.UnsubscribeAsync("nothing").Within());
        await client.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(5));
        await server.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task DisposeAsync_EventHandlerIgnoresItsToken_DoesNotHang()
    {
        var server = new TestServer().Install();
        server.Dispatcher.AddRaw("subscribe", static (_, _) => ValueTask.FromResult(RawJson.Parse("true")));
        var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        var entered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await client.SubscribeAsync("stuck", async (_, _) =>
        {
            entered.TrySetResult();
            await Task.Delay(Timeout.Infinite, CancellationToken.None);
        }).Within();
        await server.SendToAllAsync("{\"jsonrpc\":\"2.0\",\"method\":\"stuck\"}");
        await entered.Task.Within();

        await client.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(5));
        await server.DisposeAsync();
    }
}
