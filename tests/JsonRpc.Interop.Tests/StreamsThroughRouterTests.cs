using System.Diagnostics;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Server;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// StreamJsonRpc 2.26's <see cref="IProgress{T}"/> and <see cref="IAsyncEnumerable{T}"/> through real routers, as
/// they work between two StreamJsonRpc peers connected directly: on one node with both framings, with a WebSocket
/// caller, and across two cluster nodes.
/// </summary>
public sealed class StreamsThroughRouterTests(ITestOutputHelper output)
{
    public static TheoryData<Topology> Topologies => StreamRig.All;

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task Progress_ReportsReachTheCallerInOrderBeforeTheAnswer(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);
        var progress = new ProgressRecorder();

        var result = await rig.Caller.Rpc.InvokeWithCancellationAsync<int>("report", [5, progress], CancellationToken.None).Within();

        // StreamJsonRpc forgets a call's progress once its answer arrives: every report seen came before it.
        Assert.Equal(5, result);
        Assert.Equal([5001, 5002, 5003, 5004, 5005], progress.Values);
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task AsyncEnumerableResult_AllValuesArrive_WithAndWithoutPrefetch(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);

        foreach (var method in new[] { "range", "rangePrefetch" })
        {
            var values = await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>(method, [1000], CancellationToken.None).Within();
            var seen = new List<int>();
            await foreach (var value in values)
            {
                seen.Add(value);
            }

            Assert.Equal(Enumerable.Range(0, 1000), seen);
        }
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task AsyncEnumerableArgument_TheProviderConsumesTheCallersStream(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);

        var sum = await rig.Caller.Rpc.InvokeWithCancellationAsync<long>("sum", [StreamMethods.RangeAsync(500)], CancellationToken.None).Within();

        Assert.Equal(Enumerable.Range(0, 500).Sum(), sum);
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task BreakingOut_DisposesTheProvidersEnumerator(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);

        var values = await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("endless", [], CancellationToken.None).Within();
        var seen = 0;
        await foreach (var value in values)
        {
            Assert.Equal(seen, value);
            if (++seen == 10)
            {
                break;
            }
        }

        await rig.Methods.EndlessDisposed.Within();
        Assert.Equal(10, seen);
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task ProviderDiesMidStream_TheCallersEnumerationEndsWithProviderDisconnected(Topology topology)
    {
        // No timeout can end a pull here: only the provider's disconnect can.
        await using var rig = await StreamRig.StartAsync(topology, o => o.CallTimeout = TimeSpan.FromMinutes(5));
        var values = await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("endless", [], CancellationToken.None).Within();
        await using var enumerator = values.GetAsyncEnumerator();
        for (var i = 0; i < 5; i++)
        {
            Assert.True(await enumerator.MoveNextAsync().Within());
        }

        var clock = Stopwatch.StartNew();
        await rig.Provider.DisposeAsync();
        var ex = await Assert.ThrowsAsync<RemoteInvocationException>(async () =>
        {
            while (await enumerator.MoveNextAsync().Within())
            {
            }
        });
        output.WriteLine($"{topology}: the enumeration ended {clock.Elapsed.TotalMilliseconds:F0} ms after the provider closed.");
        Assert.Equal(RouterErrorCodes.ProviderDisconnected, ex.ErrorCode);
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task CallerLeavesMidStream_TheProvidersEnumeratorIsDisposed(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);
        var values = await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("endless", [], CancellationToken.None).Within();
        var enumerator = values.GetAsyncEnumerator();
        Assert.True(await enumerator.MoveNextAsync().Within());
        Assert.True(await enumerator.MoveNextAsync().Within());

        // The caller goes without disposing its enumerator: the router tells the generator.
        await rig.Caller.DisposeAsync();

        await rig.Methods.EndlessDisposed.Within();
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task TwoGeneratorsWithTheSameToken_OneConsumerPullsEachFromItsOwn(Topology topology)
    {
        await using var rig = await StreamRig.StartAsync(topology);
        await using var second = await rig.ConnectProviderAsync(new StreamMethods { Prefix = "b.", RangeBase = 1_000_000 }, "second");
        await Eventually.TrueAsync(async () =>
        {
            try
            {
                await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("b.range", [0], CancellationToken.None).Within();
                return true;
            }
            catch (RemoteMethodNotFoundException)
            {
                return false;
            }
        }, "the second provider is routed");

        // Each StreamJsonRpc generator numbers its enumerators from 1: both streams carry one token.
        var first = (await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("range", [50], CancellationToken.None).Within()).GetAsyncEnumerator();
        var other = (await rig.Caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("b.range", [50], CancellationToken.None).Within()).GetAsyncEnumerator();
        var (a, b) = (new List<int>(), new List<int>());
        while (await first.MoveNextAsync().Within() | await other.MoveNextAsync().Within())
        {
            a.Add(first.Current);
            b.Add(other.Current);
        }

        Assert.Equal(Enumerable.Range(0, 50), a);
        Assert.Equal(Enumerable.Range(1_000_000, 50), b);
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task TwoCallersWithTheSameProgressToken_ReportsNeverCrossOver(Topology topology)
    {
        var hold = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var rig = await StreamRig.StartAsync(topology);
        await using var otherCaller = await rig.ConnectCallerAsync();
        await StreamRig.WaitUntilRoutedAsync(otherCaller);
        rig.Methods.HoldReport = hold;

        // Each StreamJsonRpc caller numbers its progress tokens from 0, and both used 0 in WaitUntilRoutedAsync: both
        // calls carry 1. The first call's reports come while it is alone in flight; the second's while both are.
        var mine = new ProgressRecorder();
        var theirs = new ProgressRecorder();
        var reported = rig.Methods.ReportsDone;
        var myCall = rig.Caller.Rpc.InvokeWithCancellationAsync<int>("report", [3, mine], CancellationToken.None);
        await Eventually.TrueAsync(() => mine.Values.Length == 3, "the first call's reports arrived");
        var theirCall = otherCaller.Rpc.InvokeWithCancellationAsync<int>("report", [4, theirs], CancellationToken.None);
        await Eventually.TrueAsync(() => rig.Methods.ReportsDone == reported + 2, "the provider reported for both calls");
        hold.TrySetResult();

        Assert.Equal(3, await myCall.Within());
        Assert.Equal(4, await theirCall.Within());
        Assert.Equal([3001, 3002, 3003], mine.Values);
        Assert.DoesNotContain(theirs.Values, v => v / 1000 != 4);
        output.WriteLine($"{topology}: the second caller got {theirs.Values.Length} of its 4 reports (the token was ambiguous while both calls were in flight).");
    }

    [TopologyTheory]
    [MemberData(nameof(Topologies))]
    public async Task TwoCallersWithTheSameProgressToken_OnceTheRouterHasLearnedTheArgument_EachGetsAllItsReports(Topology topology)
    {
        var hold = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var rig = await StreamRig.StartAsync(topology);
        await using var otherCaller = await rig.ConnectCallerAsync();
        await StreamRig.WaitUntilRoutedAsync(otherCaller);

        // One call with reports from each caller, one after the other: each report comes by the second argument of the
        // only call that carries its token, in two different calls, so the router takes that argument for a token.
        var firstMine = new ProgressRecorder();
        var firstTheirs = new ProgressRecorder();
        Assert.Equal(2, await rig.Caller.Rpc.InvokeWithCancellationAsync<int>("report", [2, firstMine], CancellationToken.None).Within());
        Assert.Equal(2, await otherCaller.Rpc.InvokeWithCancellationAsync<int>("report", [2, firstTheirs], CancellationToken.None).Within());
        Assert.Equal([2001, 2002], firstMine.Values);
        Assert.Equal([2001, 2002], firstTheirs.Values);

        // Each caller numbers its tokens alike (0 in WaitUntilRoutedAsync, then 1, then 2): the next two calls carry the
        // same token, and the second one's reports come while both calls wait at the provider. Before the router gave
        // such arguments tokens of its own, those reports went to nobody (the test above).
        rig.Methods.HoldReport = hold;
        var reported = rig.Methods.ReportsDone;
        var mine = new ProgressRecorder();
        var theirs = new ProgressRecorder();
        var myCall = rig.Caller.Rpc.InvokeWithCancellationAsync<int>("report", [3, mine], CancellationToken.None);
        await Eventually.TrueAsync(() => mine.Values.Length == 3, "the first call's reports arrived");
        var theirCall = otherCaller.Rpc.InvokeWithCancellationAsync<int>("report", [4, theirs], CancellationToken.None);
        await Eventually.TrueAsync(() => rig.Methods.ReportsDone == reported + 2, "the provider reported for both calls");
        await Eventually.TrueAsync(() => theirs.Values.Length == 4, "the second call's reports arrived");
        hold.TrySetResult();

        Assert.Equal(3, await myCall.Within());
        Assert.Equal(4, await theirCall.Within());
        Assert.Equal([3001, 3002, 3003], mine.Values);
        Assert.Equal([4001, 4002, 4003, 4004], theirs.Values);
    }
}
