using System.Collections.Concurrent;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;
using JsonRpc.Server;

namespace JsonRpc.Client.Tests;

/// <summary>The client against the real router on Kestrel: every point of the client issue end to end.</summary>
public sealed class RouterTests
{
    private static readonly TestJsonContext Ctx = TestJsonContext.Default;

    [Fact]
    public async Task RegisterAsync_MethodServedByOneClient_CalledByAnother()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod("add", "a", "b", (int a, int b) => a + b, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        await provider.RegisterAsync("calc").Within();
        Assert.Equal("calc", provider.Name);

        await using var caller = await router.ConnectAsync();
        Assert.Equal(5, await caller.CallAsync("add", new AddParams(2, 3), Ctx.AddParams, Ctx.Int32).Within());
        Assert.Equal(9, await caller.CallAsync<int>("add", new object[] { 4, 5 }).Within());

        // Added after registration: announced in the background, awaited here.
        provider.AddMethod("neg", "x", "y", (int x, int y) => -x - y, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        await provider.AnnounceMethodsAsync().Within();
        Assert.Equal(-3, await caller.CallAsync<int>("neg", new[] { 1, 2 }).Within());
    }

    [Fact]
    public async Task RegisterAsync_NameHeldByAnotherClient_ThrowsRemoteError()
    {
        await using var router = await RouterHost.StartAsync();
        await using var first = await router.ConnectAsync();
        await using var second = await router.ConnectAsync();
        await first.RegisterAsync("dup").Within();
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => second.RegisterAsync("dup").Within());
        Assert.Equal(RouterErrorCodes.NameTaken, ex.Code);
        Assert.Null(second.Name);
    }

    [Fact]
    public async Task RemoteHandlerThrows_CallerGetsErrorAndProviderKeepsServing()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod<int>("explode", () => throw new InvalidOperationException("kaput"), Ctx.Int32);
        provider.AddMethod<int>("one", () => 1, Ctx.Int32);
        await provider.RegisterAsync("p").Within();
        await using var caller = await router.ConnectAsync();

        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync("explode").Within());
        Assert.Equal(JsonRpcErrorCodes.InternalError, ex.Code);
        Assert.Contains("kaput", ex.Message);
        Assert.Equal(1, await caller.CallAsync<int>("one").Within());
        Assert.Equal(JsonRpcClientState.Connected, provider.State);
    }

    [Fact]
    public async Task RemoteParamsDoNotBind_CallerGetsInvalidParams()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod("add", "a", "b", (int a, int b) => a + b, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        await provider.RegisterAsync("calc").Within();
        await using var caller = await router.ConnectAsync();

        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync("add", RawJson.Parse("{\"a\":\"x\"}")).Within());
        Assert.Equal(JsonRpcErrorCodes.InvalidParams, ex.Code);
        var unknown = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync("nobody").Within());
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, unknown.Code);
    }

    [Fact]
    public async Task TimeoutAndCancellation_ThroughRouter_LateAnswersDropped()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod("slow", async (int[] args, CancellationToken _) =>
        {
            await Task.Delay(args[0], CancellationToken.None);
            return args[0];
        }, Ctx.Int32Array, Ctx.Int32);
        await provider.RegisterAsync("p").Within();
        // The timeout must also leave room for the last, quick call to get through a loaded machine; the slow answers
        // come well after it.
        await using var caller = await router.ConnectAsync(new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(2) });

        await Assert.ThrowsAsync<TimeoutException>(() => caller.CallAsync("slow", RawJson.Parse("[4000]")).Within());
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => caller.CallAsync("slow", RawJson.Parse("[1000]"), cts.Token).Within());

        await Eventually.TrueAsync(() => caller.DroppedAnswers == 2, "both late answers dropped");
        Assert.Equal(10, await caller.CallAsync("slow", 10, Ctx.Int32, Ctx.Int32).Within());
    }

    [Fact]
    public async Task Events_PublishedByOne_ReachEverySubscriberButTheSender()
    {
        await using var router = await RouterHost.StartAsync();
        await using var a = await router.ConnectAsync();
        await using var b = await router.ConnectAsync();
        await using var publisher = await router.ConnectAsync();
        await a.RegisterAsync("a").Within();
        await b.RegisterAsync("b").Within();
        await publisher.RegisterAsync("pub").Within();

        var gotA = new ConcurrentQueue<Point?>();
        var gotB = new ConcurrentQueue<string>();
        var gotPublisher = new ConcurrentQueue<string>();
        await a.SubscribeAsync("moved", Ctx.Point, (Point? p) => gotA.Enqueue(p)).Within();
        await b.SubscribeAsync("moved", p => gotB.Enqueue(p.ToString())).Within();
        await publisher.SubscribeAsync("moved", p => gotPublisher.Enqueue(p.ToString())).Within();

        await publisher.PublishAsync("moved", new Point(1, 2), Ctx.Point).Within();
        await Eventually.TrueAsync(() => gotA.Count == 1 && gotB.Count == 1, "both subscribers got the event");
        Assert.Equal(new Point(1, 2), gotA.Single());
        Assert.Equal("{\"x\":1,\"y\":2}", gotB.Single());

        Assert.True(await b.UnsubscribeAsync("moved").Within());
        var sentinels = new ConcurrentQueue<string>();
        await b.SubscribeAsync("sentinel", _ => sentinels.Enqueue("b")).Within();
        await publisher.SubscribeAsync("sentinel", _ => sentinels.Enqueue("publisher")).Within();
        await publisher.PublishAsync("moved", new Point(3, 4), Ctx.Point).Within();
        await Eventually.TrueAsync(() => gotA.Count == 2, "a got the second event");

        // Instead of waiting a while for events that must not come: the router would queue a copy of the second "moved"
        // for b or the publisher while it handles the publish, before a has even received its copy, so before a's
        // "sentinel"; each connection delivers in order, and each client runs its event handlers in order.
        await a.PublishAsync("sentinel", RawJson.Parse("0")).Within();
        await Eventually.TrueAsync(() => sentinels.Count == 2, "b and the publisher got the sentinel");
        Assert.Single(gotB);
        Assert.Empty(gotPublisher);
    }

    [Fact]
    public async Task CallBatchAsync_ThroughRouter_AcrossProviders()
    {
        await using var router = await RouterHost.StartAsync();
        await using var p1 = await router.ConnectAsync();
        await using var p2 = await router.ConnectAsync();
        p1.AddMethod<int>("one", () => 1, Ctx.Int32);
        p2.AddMethod<int>("two", () => 2, Ctx.Int32);
        await p1.RegisterAsync("p1").Within();
        await p2.RegisterAsync("p2").Within();
        await using var caller = await router.ConnectAsync();

        var results = await caller.CallBatchAsync([JsonRpcBatchItem.Call("two"), JsonRpcBatchItem.Call("one"), JsonRpcBatchItem.Call("none")]).Within();
        Assert.Equal(2, results[0].GetResult(Ctx.Int32));
        Assert.Equal(1, results[1].GetResult(Ctx.Int32));
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, results[2].Error!.Code);
    }

    [Fact]
    public async Task ProviderDropsMidCall_CallerGetsRouterErrorAtOnce()
    {
        await using var router = await RouterHost.StartAsync();
        var provider = await router.ConnectAsync();
        var entered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        provider.AddMethod("hang", async (CancellationToken ct) =>
        {
            entered.TrySetResult();
            await Task.Delay(Timeout.Infinite, ct);
            return 0;
        }, Ctx.Int32);
        await provider.RegisterAsync("p").Within();
        await using var caller = await router.ConnectAsync(new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(20) });

        var call = caller.CallAsync("hang").AsTask();
        await entered.Task.Within();
        await provider.DisposeAsync();
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => call.WaitAsync(TimeSpan.FromSeconds(5)));
        Assert.Equal(RouterErrorCodes.ProviderDisconnected, ex.Code);
    }

    [Fact]
    public async Task RouterRestart_ClientsReconnect_RestoringNameMethodsAndSubscriptions()
    {
        var router = await RouterHost.StartAsync();
        var port = router.Port;
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(50), MaxDelay = TimeSpan.FromMilliseconds(200) } };
        await using var provider = await router.ConnectAsync(options);
        provider.AddMethod("add", "a", "b", (int a, int b) => a + b, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        await provider.RegisterAsync("calc").Within();
        var events = new ConcurrentQueue<string>();
        await provider.SubscribeAsync("ping", p => events.Enqueue(p.ToString())).Within();
        await using var caller = await router.ConnectAsync(options);
        var providerStates = new ConcurrentQueue<JsonRpcClientState>();
        provider.StateChanged += (_, e) => providerStates.Enqueue(e.NewState);

        await router.DisposeAsync();
        await Eventually.TrueAsync(() => provider.State == JsonRpcClientState.Reconnecting, "provider noticed the loss");
        await using var restarted = await RouterHost.StartAsync(port: port);

        await Eventually.TrueAsync(() => provider.State == JsonRpcClientState.Connected && caller.State == JsonRpcClientState.Connected, "both reconnected");
        Assert.Equal([JsonRpcClientState.Reconnecting, JsonRpcClientState.Connected], providerStates.Take(2));
        Assert.Equal(7, await caller.CallAsync<int>("add", new[] { 3, 4 }).Within()); // name and method restored
        await caller.PublishAsync("ping", RawJson.Parse("[1]")).Within();
        await Eventually.TrueAsync(() => events.Count == 1, "subscription restored");
        Assert.Equal(1, restarted.Router.GetStats().RegisteredClients);
    }

    [Fact]
    public async Task KeepAlive_KeepsIdleClientPastRouterIdleTimeout()
    {
        // Generous against a busy machine: a keep-alive every 300 ms against an idle timeout ten times as long.
        await using var router = await RouterHost.StartAsync(o => o.KeepAliveTimeout = TimeSpan.FromMilliseconds(3000));
        await using var kept = await router.ConnectAsync(new JsonRpcClientOptions { KeepAliveInterval = TimeSpan.FromMilliseconds(300) });
        await using var silent = await router.ConnectAsync(new JsonRpcClientOptions { KeepAliveInterval = Timeout.InfiniteTimeSpan, Reconnect = { Enabled = false } });
        var keptChanges = new ConcurrentQueue<string>();
        kept.StateChanged += (_, e) => keptChanges.Enqueue($"{e.NewState}: {e.Exception?.Message}");

        await Eventually.TrueAsync(() => silent.State == JsonRpcClientState.Disconnected, "the router closed the silent client");
        await Task.Delay(3000); // another whole idle timeout
        Assert.Equal(JsonRpcClientState.Connected, kept.State);
        Assert.True(keptChanges.IsEmpty, string.Join("; ", keptChanges));
        Assert.False((await kept.CallAsync("get_server_stats").Within()).IsEmpty);
    }

    [Fact]
    public async Task RemoveMethodAsync_WithdrawsMethodFromRouter()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod<int>("one", () => 1, Ctx.Int32);
        await provider.RegisterAsync("p").Within();
        await using var caller = await router.ConnectAsync();
        Assert.Equal(1, await caller.CallAsync<int>("one").Within());

        Assert.True(await provider.RemoveMethodAsync("one").Within());
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync("one").Within());
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ex.Code);
        Assert.Empty(provider.Methods);
    }

    [Fact]
    public async Task RegisterAsync_RouterWithAccessToken_NeedsTheToken()
    {
        await using var router = await RouterHost.StartAsync(o => o.AccessToken = "s3cret");
        await using var without = await router.ConnectAsync();
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => without.RegisterAsync("a").Within());
        Assert.Equal(RouterErrorCodes.AccessDenied, ex.Code);

        await using var with = await router.ConnectAsync(new JsonRpcClientOptions { AccessToken = "s3cret" });
        await with.RegisterAsync("b").Within();
        Assert.Equal("b", with.Name);
    }

    [Fact]
    public async Task DisposeAsync_WhileReconnecting_StopsPromptly()
    {
        var router = await RouterHost.StartAsync();
        var client = await router.ConnectAsync(new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromSeconds(30), MaxDelay = TimeSpan.FromSeconds(30) } });
        await router.DisposeAsync();
        await Eventually.TrueAsync(() => client.State == JsonRpcClientState.Reconnecting, "reconnecting");
        var waiting = client.CallAsync("x").AsTask();

        await client.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(3));
        Assert.Equal(JsonRpcClientState.Disposed, client.State);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => waiting.Within());
    }
}
