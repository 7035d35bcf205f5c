using JsonRpc.Client;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// <see cref="JsonRpcClient"/> consuming a StreamJsonRpc provider's async enumerables and progress, through a real
/// router, on both of the provider's framings: the client speaks StreamJsonRpc's wire protocol.
/// </summary>
public sealed class ClientStreamsTests
{
    public static TheoryData<PeerFraming> Framings => StreamJsonRpcThroughRouterTests.Framings;

    private static async Task<(RouterHost Router, StreamJsonRpcPeer Provider, JsonRpcClient Client, StreamMethods Methods)> StartAsync(PeerFraming framing)
    {
        var router = await RouterHost.StartAsync();
        var methods = new StreamMethods();
        var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, methods.Serve);
        await provider.RegisterAsync("provider", methods.Names);
        var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        return (router, provider, client, methods);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamAsync_StreamJsonRpcProvider_AllValuesInOrder_WithAndWithoutPrefetch(PeerFraming framing)
    {
        var (router, provider, client, _) = await StartAsync(framing);
        await using (router)
        await using (provider)
        await using (client)
        {
            foreach (var method in new[] { "range", "rangePrefetch" })
            {
                var seen = new List<int>();
                await foreach (var value in client.StreamAsync<int>(method, new object[] { 1000 }).WithCancellation(CancellationToken.None))
                {
                    seen.Add(value);
                }

                Assert.Equal(Enumerable.Range(0, 1000), seen);
            }

            // An empty stream comes whole in the answer.
            Assert.Empty(await client.StreamAsync<int>("range", new object[] { 0 }).ToListAsync().AsTask().Within());
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamAsync_BreakingOut_DisposesTheProvidersEnumerator(PeerFraming framing)
    {
        var (router, provider, client, methods) = await StartAsync(framing);
        await using (router)
        await using (provider)
        await using (client)
        {
            var seen = 0;
            await foreach (var value in client.StreamAsync<int>("endless"))
            {
                Assert.Equal(seen, value);
                if (++seen == 7)
                {
                    break;
                }
            }

            await methods.EndlessDisposed.Within();
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamAsync_ProviderLeaves_TheEnumerationFailsWithProviderDisconnected(PeerFraming framing)
    {
        var (router, provider, client, _) = await StartAsync(framing);
        await using (router)
        await using (client)
        {
            await using var values = client.StreamAsync<int>("endless").GetAsyncEnumerator();
            Assert.True(await values.MoveNextAsync().Within());
            await provider.DisposeAsync();

            var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(async () =>
            {
                while (await values.MoveNextAsync().Within())
                {
                }
            });
            Assert.Equal(Server.RouterErrorCodes.ProviderDisconnected, ex.Code);
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task CreateProgress_StreamJsonRpcProviderReports_ArriveInOrderBeforeTheAnswer(PeerFraming framing)
    {
        var (router, provider, client, _) = await StartAsync(framing);
        await using (router)
        await using (provider)
        await using (client)
        {
            var recorder = new ProgressRecorder();
            using var progress = client.CreateProgress<int>(recorder);

            var result = await client.CallAsync<int>("report", new object[] { 4, progress.Token }).Within();

            Assert.Equal(4, result);
            Assert.Equal([4001, 4002, 4003, 4004], recorder.Values);
        }
    }

    private static readonly System.Text.Json.Serialization.Metadata.JsonTypeInfo<int> Int32 =
        (System.Text.Json.Serialization.Metadata.JsonTypeInfo<int>)System.Text.Json.JsonSerializerOptions.Default.GetTypeInfo(typeof(int));

    /// <summary>A JsonRpcClient provider of "numbers" (0 … count-1, count from [count]) and "forever" (until disposed).</summary>
    private static async Task<(JsonRpcClient Provider, TaskCompletionSource Disposed)> ServeStreamsAsync(RouterHost router)
    {
        var disposed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        provider.AddStreamMethod("numbers", p => StreamMethods.RangeAsync(System.Text.Json.JsonSerializer.Deserialize<int[]>(p.Span)![0]), Int32);
        provider.AddStreamMethod("forever", _ => ForeverAsync(disposed), Int32);
        await provider.RegisterAsync("streams").Within();
        return (provider, disposed);

        static async IAsyncEnumerable<int> ForeverAsync(TaskCompletionSource disposed, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            try
            {
                for (var i = 0; ; i++)
                {
                    await Task.Yield();
                    yield return i;
                }
            }
            finally
            {
                disposed.TrySetResult();
            }
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcCaller_ConsumesAJsonRpcClientsStream_BreakingOutDisposesIt(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var (provider, disposed) = await ServeStreamsAsync(router);
        await using (provider)
        {
            await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);
            var seen = new List<int>();
            await foreach (var value in await caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("numbers", [300], CancellationToken.None).Within())
            {
                seen.Add(value);
            }

            Assert.Equal(Enumerable.Range(0, 300), seen);

            var count = 0;
            await foreach (var value in await caller.Rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("forever", [], CancellationToken.None).Within())
            {
                Assert.Equal(count, value);
                if (++count == 5)
                {
                    break;
                }
            }

            await disposed.Task.Within();
        }
    }

    [Fact]
    public async Task JsonRpcClientCaller_ConsumesAJsonRpcClientsStream_AndItEndsWhenTheCallerLeaves()
    {
        await using var router = await RouterHost.StartAsync();
        var (provider, disposed) = await ServeStreamsAsync(router);
        await using (provider)
        {
            await using (var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step))
            {
                Assert.Equal(Enumerable.Range(0, 1000), await caller.StreamAsync("numbers", Protocol.RawJson.FromUtf8("[1000]"u8.ToArray()), Int32).ToListAsync().AsTask().Within());

                // Left undisposed on purpose: the caller goes away mid-stream.
                var forever = caller.StreamAsync("forever", default, Int32).GetAsyncEnumerator();
                Assert.True(await forever.MoveNextAsync().Within());
            }

            // The caller left without ending the enumeration: the router aborts it at the generator.
            await disposed.Task.Within();
        }
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcCallersProgress_ReportedByAJsonRpcClientProvider_InOrderBeforeTheAnswer(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        var Int64 = (System.Text.Json.Serialization.Metadata.JsonTypeInfo<long>)System.Text.Json.JsonSerializerOptions.Default.GetTypeInfo(typeof(long));
        provider.AddMethod("report", "count", "progress", (int count, long token, CancellationToken _) =>
        {
            var progress = provider.CreateProgressReporter(token, Int32);
            for (var i = 1; i <= count; i++)
            {
                progress.Report(count * 1000 + i);
            }

            return new ValueTask<int>(count);
        }, Int32, Int64, Int32);
        await provider.RegisterAsync("reporter").Within();
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);

        var recorder = new ProgressRecorder();
        Assert.Equal(6, await caller.Rpc.InvokeWithCancellationAsync<int>("report", [6, recorder], CancellationToken.None).Within());
        Assert.Equal([6001, 6002, 6003, 6004, 6005, 6006], recorder.Values);

        // By name too, as StreamJsonRpc sends an object of arguments.
        var named = new ProgressRecorder();
        Assert.Equal(2, await caller.Rpc.InvokeWithParameterObjectAsync<int>("report", new { count = 2, progress = (IProgress<int>)named }).Within());
        Assert.Equal([2001, 2002], named.Values);
    }
}
