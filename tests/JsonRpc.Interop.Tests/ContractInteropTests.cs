using JsonRpc.Client;
using JsonRpc.Interop.Tests.Contracts;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// Generated contract code against StreamJsonRpc through the real router (both ways) and directly over loopback TCP
/// (our proxy to its server), on both of StreamJsonRpc's framings: our proxy calling StreamJsonRpc's <c>AddLocalRpcTarget</c>, and StreamJsonRpc's <c>Attach</c> proxy
/// (positional and named params) calling our generated target; values, void methods, progress, streams, cancellation.
/// </summary>
public sealed class ContractInteropTests
{
    internal static readonly string[] WireNames = ["calc.add", "ConcatAsync", "NoteAsync", "CountAsync", "RangeAsync", "WaitForCancelAsync"];

    public static TheoryData<PeerFraming> Framings => StreamJsonRpcThroughRouterTests.Framings;

    public static TheoryData<PeerFraming, bool> FramingsAndNaming => new()
    {
        { PeerFraming.NewlineSystemTextJson, false },
        { PeerFraming.NewlineSystemTextJson, true },
        { PeerFraming.HeaderDelimited, false },
        { PeerFraming.HeaderDelimited, true },
    };

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task GeneratedProxy_CallsStreamJsonRpcTarget(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        var target = new InteropCalculator();
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => rpc.AddLocalRpcTarget<IInteropCalculator>(target, null));
        await provider.RegisterAsync("provider", WireNames);
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        var calculator = client.Attach<IInteropCalculator>();
        await ExerciseAsync(calculator, target);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task GeneratedProxy_CallsStreamJsonRpcTarget_Directly(PeerFraming framing)
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        var options = new JsonRpcClientOptions
        {
            Framing = framing == PeerFraming.HeaderDelimited ? JsonRpcClientFraming.ContentLength : JsonRpcClientFraming.NewlineDelimited,
            KeepAliveInterval = Timeout.InfiniteTimeSpan,
        };
        var connecting = JsonRpcClient.ConnectAsync("127.0.0.1", port, options);
        using var socket = await listener.AcceptSocketAsync().Within();
        await using var stream = new System.Net.Sockets.NetworkStream(socket);
        var target = new InteropCalculator();
        using var server = new StreamJsonRpc.JsonRpc(framing == PeerFraming.HeaderDelimited
            ? new HeaderDelimitedMessageHandler(stream, stream)
            : JsonRpc.Peers.StreamJsonRpcNewline.Create(stream));
        server.AddLocalRpcTarget<IInteropCalculator>(target, null);
        server.StartListening();
        await using var client = await connecting.WaitAsync(Bounds.Step);

        await ExerciseAsync(client.Attach<IInteropCalculator>(), target);
    }

    [Theory]
    [MemberData(nameof(FramingsAndNaming))]
    public async Task StreamJsonRpcProxy_CallsGeneratedTarget(PeerFraming framing, bool named)
    {
        await using var router = await RouterHost.StartAsync();
        var target = new InteropCalculator();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        client.AddTarget<IInteropCalculator>(target);
        await client.RegisterAsync("provider").Within();
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing);
        var calculator = caller.Rpc.Attach<IInteropCalculator>(new JsonRpcProxyOptions { ServerRequiresNamedArguments = named });
        await ExerciseAsync(calculator, target);
    }

    /// <summary>Every kind of method of the contract, through <paramref name="calculator"/> to <paramref name="target"/>.</summary>
    internal static async Task ExerciseAsync(IInteropCalculator calculator, InteropCalculator target)
    {
        Assert.Equal(5, await calculator.AddAsync(2, 3, CancellationToken.None).Within());
        Assert.Equal("ab", await calculator.ConcatAsync("a", "b").Within());
        await calculator.NoteAsync("hello").Within();
        Assert.Equal("hello", await target.Noted.Within());

        var reports = new ProgressRecorder();
        Assert.Equal(4, await calculator.CountAsync(4, reports, CancellationToken.None).AsTask().Within());
        Assert.Equal([10, 20, 30, 40], reports.Values);

        var values = new List<int>();
        await foreach (var value in calculator.RangeAsync(500, CancellationToken.None))
        {
            values.Add(value);
        }

        Assert.Equal(Enumerable.Range(0, 500), values);

        using var cts = new CancellationTokenSource();
        var call = calculator.WaitForCancelAsync(cts.Token);
        await target.Waiting.Within();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.Within());
        await target.Cancelled.Within();
    }
}
