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
            Assert.Empty(await client.StreamAsync<int>("range", new object[] { 0 }).ToListAsync().AsTask().Bounded());
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

            await methods.EndlessDisposed.Bounded();
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
            Assert.True(await values.MoveNextAsync().Bounded());
            await provider.DisposeAsync();

            var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(async () =>
            {
                while (await values.MoveNextAsync().Bounded())
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

            var result = await client.CallAsync<int>("report", new object[] { 4, progress.Token }).Bounded();

            Assert.Equal(4, result);
            Assert.Equal([4001, 4002, 4003, 4004], recorder.Values);
        }
    }
}
