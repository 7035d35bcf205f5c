using System.Net;
using System.Net.Sockets;
using JsonRpc.Client;
using JsonRpc.Dispatch;
using JsonRpc.Interop.Tests.Contracts;
using JsonRpc.Interop.Tests.Infrastructure;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// Contract events between the stacks, on both of StreamJsonRpc's framings: a StreamJsonRpc <c>AddLocalRpcTarget</c>
/// server's events raise our generated proxy's (directly and through the router), and our generated target's events
/// (a dispatcher serving a socket, a client through the router) raise a StreamJsonRpc <c>Attach</c> proxy's.
/// </summary>
public sealed class ContractEventInteropTests
{
    private static readonly string[] WireNames = ["MeasureAsync", "PokeAsync"];

    public static TheoryData<PeerFraming> Framings => StreamJsonRpcThroughRouterTests.Framings;

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcTargetEvents_RaiseGeneratedProxyEvents_Directly(PeerFraming framing)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var options = new JsonRpcClientOptions
        {
            Framing = framing == PeerFraming.HeaderDelimited ? JsonRpcClientFraming.ContentLength : JsonRpcClientFraming.NewlineDelimited,
            KeepAliveInterval = Timeout.InfiniteTimeSpan,
        };
        var connecting = JsonRpcClient.ConnectAsync("127.0.0.1", port, options);
        using var socket = await listener.AcceptSocketAsync().Within();
        await using var stream = new NetworkStream(socket);
        using var server = new StreamJsonRpc.JsonRpc(framing == PeerFraming.HeaderDelimited
            ? new HeaderDelimitedMessageHandler(stream, stream)
            : JsonRpc.Peers.StreamJsonRpcNewline.Create(stream));
        server.AddLocalRpcTarget<IInteropSensor>(new InteropSensor(), null);
        server.StartListening();
        await using var client = await connecting.WaitAsync(Bounds.Step);

        var sensor = client.Attach<IInteropSensor>();
        await new SensorEvents(sensor).ExerciseAsync(sensor);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcTargetEvents_RaiseGeneratedProxyEvents_ThroughRouter(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => rpc.AddLocalRpcTarget<IInteropSensor>(new InteropSensor(), null));
        await provider.RegisterAsync("sensor", WireNames);
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        await client.RegisterAsync("consumer").Within();

        var sensor = client.Attach<IInteropSensor>();
        var events = new SensorEvents(sensor);
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 2, "the proxy subscribes to both events at the router");
        await events.ExerciseAsync(sensor);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task GeneratedDispatcherTargetEvents_RaiseStreamJsonRpcProxyEvents_Directly(PeerFraming framing)
    {
        var dispatcher = new JsonRpcDispatcher().AddTarget<IInteropSensor>(new InteropSensor());
        await using var server = new DispatcherInteropTests.DispatcherServer(dispatcher, framing);
        IInteropSensor? sensor = null;
        await using var peer = await StreamJsonRpcPeer.ConnectAsync(server.Port, framing, rpc => sensor = rpc.Attach<IInteropSensor>());

        await new SensorEvents(sensor!).ExerciseAsync(sensor!);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task GeneratedClientTargetEvents_RaiseStreamJsonRpcProxyEvents_ThroughRouter(PeerFraming framing)
    {
        await using var router = await RouterHost.StartAsync();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).WaitAsync(Bounds.Step);
        client.AddTarget<IInteropSensor>(new InteropSensor());
        await client.RegisterAsync("sensor").Within();
        IInteropSensor? sensor = null;
        await using var peer = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => sensor = rpc.Attach<IInteropSensor>());

        // A StreamJsonRpc proxy knows nothing of the router: its owner subscribes to the events' names.
        await peer.RegisterAsync("consumer");
        await peer.SubscribeAsync("Measured");
        await peer.SubscribeAsync("Poked");
        await new SensorEvents(sensor!).ExerciseAsync(sensor!);
    }
}
