using JsonRpc.Client;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>StreamJsonRpc and <see cref="JsonRpcClient"/> on either side of the router.</summary>
public sealed class MixedPeerTests
{
    public static TheoryData<PeerFraming> Framings => StreamJsonRpcThroughRouterTests.Framings;

    private static async Task<JsonRpcClient> ConnectClientAsync(RouterHost router)
        => await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcCaller_JsonRpcClientProvider_CallsErrorsAndCancellation(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var slow = new SlowMethod();
        await using var provider = await ConnectClientAsync(router);
        PeerMethods.Serve(provider, slow);
        await provider.RegisterAsync("provider").Within();
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);

        Assert.Equal(5, await caller.Rpc.InvokeWithCancellationAsync<int>("add", [2, 3], CancellationToken.None).Within());
        Assert.Equal(9, await caller.Rpc.InvokeWithParameterObjectAsync<int>("add", new { a = 4, b = 5 }).Within());
        var big = new string('y', 1024 * 1024);
        Assert.Equal(big.Length, await caller.Rpc.InvokeWithCancellationAsync<int>("length", [big], CancellationToken.None).Within());

        var ex = await Assert.ThrowsAsync<RemoteInvocationException>(() => caller.Rpc.InvokeAsync<int>("fail").Within());
        Assert.Equal(PeerMethods.FailCode, ex.ErrorCode);
        Assert.Contains("bad", PeerMethods.DataText(ex));

        await StreamJsonRpcThroughRouterTests.AssertCancelsAsync(caller, slow);
        Assert.Equal(3, await caller.Rpc.InvokeWithCancellationAsync<int>("add", [1, 2], CancellationToken.None).Within());
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task JsonRpcClientCaller_StreamJsonRpcProvider_CallsErrorsAndCancellation(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var slow = new SlowMethod();
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => PeerMethods.Serve(rpc, slow));
        await provider.RegisterAsync("provider", "add", "fail", "length", "slow");
        await using var caller = await ConnectClientAsync(router);

        Assert.Equal(5, await caller.CallAsync<int>("add", new object[] { 2, 3 }).Within());
        Assert.Equal(9, await caller.CallAsync<int>("add", new { a = 4, b = 5 }).Within());
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync<int>("fail").Within());
        Assert.Equal(PeerMethods.FailCode, ex.Code);
        Assert.Contains("bad", ex.ErrorData.ToString());

        // Cancelling ends the call at once, and the provider's token fires.
        using var cts = new CancellationTokenSource();
        var call = caller.CallAsync<int>("slow", null, cts.Token).AsTask();
        await slow.Started.Within();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.WaitAsync(Bounds.Cancel));
        await slow.Cancelled.Within();

        // The provider's late -32800 answer is dropped; the client goes on.
        Assert.Equal(3, await caller.CallAsync<int>("add", new object[] { 1, 2 }).Within());
        Assert.Equal(JsonRpcClientState.Connected, caller.State);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task JsonRpcClientBatch_Cancelled_EveryStreamJsonRpcHandlerTokenFires(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var slows = new[] { new SlowMethod(), new SlowMethod() };
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc =>
        {
            rpc.AddLocalRpcMethod("slow0", new Func<CancellationToken, Task<int>>(slows[0].RunAsync));
            rpc.AddLocalRpcMethod("slow1", new Func<CancellationToken, Task<int>>(slows[1].RunAsync));
        });
        await provider.RegisterAsync("provider", "slow0", "slow1");
        await using var caller = await ConnectClientAsync(router);

        using var cts = new CancellationTokenSource();
        var batch = caller.CallBatchAsync([JsonRpcBatchItem.Call("slow0"), JsonRpcBatchItem.Call("slow1")], cts.Token);
        await Task.WhenAll(slows.Select(s => s.Started)).Within();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => batch.WaitAsync(Bounds.Cancel));
        await Task.WhenAll(slows.Select(s => s.Cancelled)).Within();
    }
}
