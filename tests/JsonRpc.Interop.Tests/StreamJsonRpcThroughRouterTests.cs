using System.Diagnostics;
using System.Threading.Channels;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Server;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>StreamJsonRpc callers and providers through a real router, on both of its framings.</summary>
public sealed class StreamJsonRpcThroughRouterTests
{
    public static TheoryData<PeerFraming> Framings => [PeerFraming.NewlineSystemTextJson, PeerFraming.HeaderDelimited];

    /// <summary>A router with a StreamJsonRpc provider of <see cref="PeerMethods"/> and a StreamJsonRpc caller.</summary>
    private sealed record Pair(RouterHost Router, StreamJsonRpcPeer Provider, StreamJsonRpcPeer Caller, SlowMethod Slow) : IAsyncDisposable
    {
        public static async Task<Pair> StartAsync(PeerFraming framing, Action<JsonRpcRouterOptions>? configure = null)
        {
            var router = await RouterHost.StartAsync(configure);
            var slow = new SlowMethod();
            var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => PeerMethods.Serve(rpc, slow));
            await provider.RegisterAsync("provider", "add", "fail", "length", "slow");
            return new Pair(router, provider, await StreamJsonRpcPeer.ConnectAsync(router.Port, framing), slow);
        }

        public async ValueTask DisposeAsync()
        {
            await Caller.DisposeAsync();
            await Provider.DisposeAsync();
            await Router.DisposeAsync();
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Call_ByPositionAndByName_Answered(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        Assert.Equal(5, await caller.Rpc.InvokeWithCancellationAsync<int>("add", [2, 3], CancellationToken.None).Within());
        Assert.Equal(9, await caller.Rpc.InvokeWithParameterObjectAsync<int>("add", new { a = 4, b = 5 }).Within());
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Call_ProviderError_CodeAndDataReachCaller(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        var ex = await Assert.ThrowsAsync<RemoteInvocationException>(() => caller.Rpc.InvokeAsync<int>("fail").Within());
        Assert.Equal(PeerMethods.FailCode, ex.ErrorCode);
        Assert.Equal("nope", ex.Message);
        Assert.Contains("bad", PeerMethods.DataText(ex));

        var missing = await Assert.ThrowsAsync<RemoteMethodNotFoundException>(() => caller.Rpc.InvokeAsync<int>("nobody").Within());
        Assert.Equal(StreamJsonRpc.Protocol.JsonRpcErrorCode.MethodNotFound, missing.ErrorCode);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Notification_ReachesProvider(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var received = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing,
            rpc => rpc.AddLocalRpcMethod("note", new Action<string>(text => received.TrySetResult(text))));
        await provider.RegisterAsync("provider", "note");
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);

        await caller.Rpc.NotifyAsync("note", "hello").Within();
        Assert.Equal("hello", await received.Task.Within());
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task SubscribeAndPublish_EverySubscriberGetsTheEvent(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var ticks = Channel.CreateUnbounded<(int Subscriber, int N)>();
        var subscribers = new List<StreamJsonRpcPeer>();
        try
        {
            for (var i = 0; i < 2; i++)
            {
                var subscriber = i;
                var peer = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing,
                    rpc => rpc.AddLocalRpcMethod("tick", new Action<int>(n => ticks.Writer.TryWrite((subscriber, n)))));
                subscribers.Add(peer);
                await peer.RegisterAsync("subscriber" + i);
                await peer.SubscribeAsync("tick");
            }

            await using var publisher = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);
            await publisher.Rpc.NotifyAsync("tick", 7).Within();
            var seen = new HashSet<(int, int)>();
            for (var i = 0; i < 2; i++)
            {
                seen.Add(await ticks.Reader.ReadAsync().AsTask().Within());
            }

            Assert.Equal([(0, 7), (1, 7)], seen.Order());
        }
        finally
        {
            foreach (var peer in subscribers)
            {
                await peer.DisposeAsync();
            }
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Calls_200Concurrent_AllAnsweredCorrectly(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        var calls = Enumerable.Range(0, 200).Select(i => caller.Rpc.InvokeWithCancellationAsync<int>("add", [i, 1000], CancellationToken.None)).ToArray();
        var results = await Task.WhenAll(calls).Within();
        Assert.Equal(Enumerable.Range(1000, 200), results);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Call_OneMiBArgument_RoundTrips(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        var big = new string('x', 1024 * 1024);
        Assert.Equal(big.Length, await caller.Rpc.InvokeWithCancellationAsync<int>("length", [big], CancellationToken.None).Within());
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Call_ProviderDisconnectsMidCall_CallerGetsProviderDisconnected(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        var call = caller.Rpc.InvokeWithCancellationAsync<int>("slow", [], CancellationToken.None);
        await slow.Started.Within();
        await provider.DisposeAsync();

        var ex = await Assert.ThrowsAsync<RemoteInvocationException>(() => call.Within());
        Assert.Equal(RouterErrorCodes.ProviderDisconnected, ex.ErrorCode);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Cancel_ReachesProviderToken_CallerCancelledWithinOneSecond(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        await AssertCancelsAsync(caller, slow);

        // The connection and the provider go on serving.
        Assert.Equal(3, await caller.Rpc.InvokeWithCancellationAsync<int>("add", [1, 2], CancellationToken.None).Within());
        Assert.Equal(1, router.Router.GetStats().CancelsForwarded);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task Cancel_HostMethod_TokenFiresAndCallerCancelledWithinOneSecond(PeerFraming framing)
    {
        var slow = new SlowMethod();
        await using var router = await RouterHost.StartAsync(setup: r => r.AddMethod("slow", new Func<CancellationToken, Task<int>>(slow.RunAsync)));
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);

        await AssertCancelsAsync(caller, slow);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task RouterTimeout_ProviderTokenFires(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing, o => o.CallTimeout = TimeSpan.FromMilliseconds(300));
        var (router, provider, caller, slow) = pair;

        var ex = await Assert.ThrowsAsync<RemoteInvocationException>(() => caller.Rpc.InvokeWithCancellationAsync<int>("slow", [], CancellationToken.None).Within());
        Assert.Equal(RouterErrorCodes.CallTimeout, ex.ErrorCode);
        await slow.Cancelled.Within();
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task CallerDisconnects_ProviderTokenFires(PeerFraming framing)
    {
        await using var pair = await Pair.StartAsync(framing);
        var (router, provider, caller, slow) = pair;

        var abandoned = caller.Rpc.InvokeWithCancellationAsync<int>("slow", [], CancellationToken.None).ContinueWith(static t => t.Exception, TaskScheduler.Default);
        await slow.Started.Within();
        await caller.DisposeAsync();
        await slow.Cancelled.Within();
        await abandoned.Within();
    }

    /// <summary>Calls "slow", cancels once it runs, and checks the handler's token fired and the caller ended within 1 s.</summary>
    internal static async Task AssertCancelsAsync(StreamJsonRpcPeer caller, SlowMethod slow)
    {
        using var cts = new CancellationTokenSource();
        var call = caller.Rpc.InvokeWithCancellationAsync<int>("slow", [], cts.Token);
        await slow.Started.Within();
        var clock = Stopwatch.StartNew();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.Within());
        var elapsed = clock.Elapsed;
        await slow.Cancelled.Within();
        Assert.True(elapsed < Bounds.Cancel, $"The cancelled call ended after {elapsed.TotalMilliseconds:F0} ms.");
    }
}
