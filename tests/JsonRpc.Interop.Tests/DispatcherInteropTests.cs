using System.Net;
using System.Text.Json;
using System.Net.Sockets;
using JsonRpc.Dispatch;
using JsonRpc.Framing;
using JsonRpc.Interop.Tests.Contracts;
using JsonRpc.Interop.Tests.Infrastructure;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// A StreamJsonRpc <c>Attach</c> proxy calling a contract target that <see cref="JsonRpcDispatcher"/> serves: directly
/// over a loopback socket (<see cref="JsonRpcDispatcher.ServeAsync"/>) and as a hosted router's host methods; positional
/// and named params, cancellation, progress, async enumerables with and without prefetch, and the enumerator disposed
/// when the caller breaks out of its enumeration or leaves in the middle of it.
/// </summary>
public sealed class DispatcherInteropTests
{
    /// <summary>Directly over a socket, and as a router's host methods; each of StreamJsonRpc's framings; positional and named params.</summary>
    public static TheoryData<bool, PeerFraming, bool> WaysFramingsAndNaming
    {
        get
        {
            var data = new TheoryData<bool, PeerFraming, bool>();
            foreach (var throughRouter in new[] { false, true })
            {
                foreach (var framing in new[] { PeerFraming.NewlineSystemTextJson, PeerFraming.HeaderDelimited })
                {
                    data.Add(throughRouter, framing, false);
                    data.Add(throughRouter, framing, true);
                }
            }

            return data;
        }
    }

    public static TheoryData<bool, int> WaysAndPrefetch => new()
    {
        { false, 0 },
        { false, 5 },
        { true, 0 },
        { true, 5 },
    };

    /// <summary>Our dispatcher serving every connection made to a loopback port.</summary>
    internal sealed class DispatcherServer : IAsyncDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly CancellationTokenSource _stop = new();
        private readonly List<Task> _connections = [];
        private readonly Task _accepting;

        public DispatcherServer(JsonRpcDispatcher dispatcher, PeerFraming framing)
        {
            _listener.Start();
            Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
            _accepting = AcceptAsync(dispatcher, framing);
        }

        public int Port { get; }

        private async Task AcceptAsync(JsonRpcDispatcher dispatcher, PeerFraming framing)
        {
            while (!_stop.IsCancellationRequested)
            {
                Socket socket;
                try
                {
                    socket = await _listener.AcceptSocketAsync(_stop.Token);
                }
                catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
                {
                    return;
                }

                IJsonRpcFramer framer = framing == PeerFraming.HeaderDelimited ? new ContentLengthFramer() : new NewlineDelimitedFramer();
                lock (_connections)
                {
                    _connections.Add(ServeAsync(dispatcher, socket, framer));
                }
            }
        }

        private async Task ServeAsync(JsonRpcDispatcher dispatcher, Socket socket, IJsonRpcFramer framer)
        {
            await using var stream = new NetworkStream(socket, ownsSocket: true);
            await dispatcher.ServeAsync(stream, framer, _stop.Token);
        }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Stop();
            await _accepting.Within();
            Task[] connections;
            lock (_connections)
            {
                connections = [.. _connections];
            }

            await Task.WhenAll(connections).Within();
            _stop.Dispose();
        }
    }

    private static JsonRpcDispatcher Serving(InteropCalculator target, int prefetch = 0)
        => new JsonRpcDispatcher(new JsonRpcDispatcherOptions { EnumeratorPrefetch = prefetch }).AddTarget<IInteropCalculator>(target);

    /// <summary>The caller's end: over a socket straight to our dispatcher, or to a router whose host methods serve the target.</summary>
    private static async Task<(IAsyncDisposable Server, int Port)> StartAsync(InteropCalculator target, bool throughRouter, PeerFraming framing, int prefetch = 0)
    {
        if (throughRouter)
        {
            var router = await RouterHost.StartAsync(
                configure: options => options.HostEnumeratorPrefetch = prefetch,
                setup: router => router.Methods.AddTarget<IInteropCalculator>(target));
            return (router, router.Port);
        }

        var server = new DispatcherServer(Serving(target, prefetch), framing);
        return (server, server.Port);
    }

    [Theory]
    [MemberData(nameof(WaysFramingsAndNaming))]
    public async Task StreamJsonRpcProxy_CallsDispatcherTarget(bool throughRouter, PeerFraming framing, bool named)
    {
        var target = new InteropCalculator();
        var (server, port) = await StartAsync(target, throughRouter, framing);
        await using var _ = server;
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(port, framing);

        await ContractInteropTests.ExerciseAsync(caller.Rpc.Attach<IInteropCalculator>(new JsonRpcProxyOptions { ServerRequiresNamedArguments = named }), target);
    }

    [Theory]
    [InlineData(false, PeerFraming.NewlineSystemTextJson)]
    [InlineData(false, PeerFraming.HeaderDelimited)]
    [InlineData(true, PeerFraming.NewlineSystemTextJson)]
    public async Task GeneratedProxy_CallsDispatcherTarget(bool throughRouter, PeerFraming framing)
    {
        var target = new InteropCalculator();
        var (server, port) = await StartAsync(target, throughRouter, framing);
        await using var _ = server;
        var options = new JsonRpc.Client.JsonRpcClientOptions
        {
            Framing = framing == PeerFraming.HeaderDelimited ? JsonRpc.Client.JsonRpcClientFraming.ContentLength : JsonRpc.Client.JsonRpcClientFraming.NewlineDelimited,
            KeepAliveInterval = throughRouter ? TimeSpan.FromSeconds(15) : Timeout.InfiniteTimeSpan, // a plain peer has no keep-alive method
        };
        await using var client = await JsonRpc.Client.JsonRpcClient.ConnectAsync("127.0.0.1", port, options).WaitAsync(Bounds.Step);

        await ContractInteropTests.ExerciseAsync(client.Attach<IInteropCalculator>(), target);
    }

    [Theory]
    [MemberData(nameof(WaysAndPrefetch))]
    public async Task StreamJsonRpcProxy_EnumeratesDispatcherStream_WithAndWithoutPrefetch(bool throughRouter, int prefetch)
    {
        var target = new InteropCalculator();
        var (server, port) = await StartAsync(target, throughRouter, PeerFraming.NewlineSystemTextJson, prefetch);
        await using var _ = server;
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(port, PeerFraming.NewlineSystemTextJson);
        var calculator = caller.Rpc.Attach<IInteropCalculator>();

        foreach (var count in new[] { 0, 3, 200 })
        {
            var values = new List<int>();
            await foreach (var value in calculator.RangeAsync(count, CancellationToken.None).WithCancellation(new CancellationTokenSource(Bounds.Step).Token))
            {
                values.Add(value);
            }

            Assert.Equal(Enumerable.Range(0, count), values);
        }
    }

    [Theory]
    [MemberData(nameof(WaysAndPrefetch))]
    public async Task StreamJsonRpcProxy_BreakingOutOfTheEnumeration_DisposesOurEnumerator(bool throughRouter, int prefetch)
    {
        var target = new InteropCalculator();
        var (server, port) = await StartAsync(target, throughRouter, PeerFraming.NewlineSystemTextJson, prefetch);
        await using var _ = server;
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(port, PeerFraming.NewlineSystemTextJson);
        var calculator = caller.Rpc.Attach<IInteropCalculator>();

        var seen = 0;
        await foreach (var value in calculator.RangeAsync(1_000_000, CancellationToken.None))
        {
            Assert.Equal(seen++, value);
            if (seen == 10)
            {
                break;
            }
        }

        Assert.True(await target.RangeEnded.Within(), "the enumerator's token was cancelled when the caller aborted");

        // The connection is still good for calls after the abort.
        Assert.Equal(7, await calculator.AddAsync(3, 4, CancellationToken.None).Within());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task StreamJsonRpcCaller_LeavingMidStream_DisposesOurEnumerator(bool throughRouter)
    {
        var target = new InteropCalculator();
        var (server, port) = await StartAsync(target, throughRouter, PeerFraming.NewlineSystemTextJson);
        await using var _ = server;
        var caller = await StreamJsonRpcPeer.ConnectAsync(port, PeerFraming.NewlineSystemTextJson);
        var enumerator = caller.Rpc.Attach<IInteropCalculator>().RangeAsync(1_000_000, CancellationToken.None).GetAsyncEnumerator();
        for (var i = 0; i < 5; i++)
        {
            Assert.True(await enumerator.MoveNextAsync().AsTask().Within());
            Assert.Equal(i, enumerator.Current);
        }

        Assert.False(target.RangeEnded.IsCompleted);
        await caller.DisposeAsync(); // the socket closes with no abort sent

        Assert.True(await target.RangeEnded.Within(), "the enumerator's token was cancelled when the connection ended");
    }

    [Fact]
    public async Task StreamJsonRpcCaller_TooManyOpenStreams_GetsTheDispatchersError()
    {
        var target = new InteropCalculator();
        var dispatcher = new JsonRpcDispatcher(new JsonRpcDispatcherOptions { MaxOpenEnumerators = 2 }).AddTarget<IInteropCalculator>(target);
        await using var server = new DispatcherServer(dispatcher, PeerFraming.NewlineSystemTextJson);
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(server.Port, PeerFraming.NewlineSystemTextJson);
        var calculator = caller.Rpc.Attach<IInteropCalculator>();
        var open = new List<IAsyncEnumerator<int>>();
        for (var i = 0; i < 2; i++)
        {
            var enumerator = calculator.RangeAsync(100, CancellationToken.None).GetAsyncEnumerator();
            Assert.True(await enumerator.MoveNextAsync().AsTask().Within());
            open.Add(enumerator);
        }

        var third = calculator.RangeAsync(100, CancellationToken.None).GetAsyncEnumerator();
        var error = await Assert.ThrowsAsync<RemoteInvocationException>(() => third.MoveNextAsync().AsTask().Within());
        Assert.Equal(JsonRpcDispatcher.Overloaded, error.ErrorCode);
        Assert.Contains("Too many open streams", error.Message);

        // The abort goes before the next call on the wire, and the dispatcher reads in order: room again at once.
        await open[0].DisposeAsync().AsTask().Within();
        await using var fourth = calculator.RangeAsync(3, CancellationToken.None).GetAsyncEnumerator();
        Assert.True(await fourth.MoveNextAsync().AsTask().Within());
        Assert.Equal(0, fourth.Current);
    }

    [Fact]
    public async Task RouterHostMethods_OnTheWire_ProgressBeforeTheAnswer_PrefetchInTheAnswer_PullsByToken()
    {
        var target = new InteropCalculator();
        await using var router = await RouterHost.StartAsync(
            configure: options => options.HostEnumeratorPrefetch = 5,
            setup: router => router.Methods.AddTarget<IInteropCalculator>(target));
        await using var caller = await RawPeer.ConnectAsync(router.Port);

        // StreamJsonRpc's IProgress argument: an integer token in its place; the reports come first, in order.
        await caller.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"CountAsync","params":[3,9]}""");
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/progress","params":[9,10]}""", await caller.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/progress","params":[9,20]}""", await caller.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/progress","params":[9,30]}""", await caller.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":3}""", await caller.ReadLineAsync());

        // A sequence that ends within the prefetch comes whole, without a token.
        await caller.SendAsync("""{"jsonrpc":"2.0","id":2,"method":"RangeAsync","params":{"count":3}}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":2,"result":{"values":[0,1,2]}}""", await caller.ReadLineAsync());

        await caller.SendAsync("""{"jsonrpc":"2.0","id":3,"method":"RangeAsync","params":[7]}""");
        using var first = JsonDocument.Parse(await caller.ReadLineAsync());
        var result = first.RootElement.GetProperty("result");
        Assert.Equal("[0,1,2,3,4]", result.GetProperty("values").GetRawText());
        var token = result.GetProperty("token").GetInt64();
        var rest = new List<int>();
        var finished = false;
        for (var pull = 0; pull < 10 && !finished; pull++)
        {
            await caller.SendAsync($$$"""{"jsonrpc":"2.0","id":"p{{{pull}}}","method":"$/enumerator/next","params":{"token":{{{token}}}}}""");
            using var page = JsonDocument.Parse(await caller.ReadLineAsync());
            var values = page.RootElement.GetProperty("result");
            rest.AddRange(values.GetProperty("values").EnumerateArray().Select(v => v.GetInt32()));
            finished = values.GetProperty("finished").GetBoolean();
        }

        Assert.Equal([5, 6], rest);
        Assert.False(await target.RangeEnded.Within());

        // Finished: the token is gone, and the router answers for it as for any unknown token.
        await caller.SendAsync($$$"""{"jsonrpc":"2.0","id":4,"method":"$/enumerator/next","params":[{{{token}}}]}""");
        using var gone = JsonDocument.Parse(await caller.ReadLineAsync());
        Assert.Equal(-32001, gone.RootElement.GetProperty("error").GetProperty("code").GetInt32());
    }

    [Theory]
    [InlineData("""{"to":2,"workDoneToken":"w"}""", """{"jsonrpc":"2.0","method":"$/progress","params":{"token":"w","value":{0}}}""")]
    [InlineData("""{"to":2,"_meta":{"progressToken":7}}""", """{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":{0}}}""")]
    [InlineData("""{"to":2,"progress":3}""", """{"jsonrpc":"2.0","method":"$/progress","params":[3,{0}]}""")]
    public async Task ContractProgress_LspAndMcpTokens_ReachTheCallerTheirWay_BeforeTheAnswer(string @params, string report)
    {
        var target = new InteropCalculator();
        await using var server = new DispatcherServer(Serving(target), PeerFraming.NewlineSystemTextJson);
        await using var caller = await RawPeer.ConnectAsync(server.Port);

        // The contract's IProgress<int> parameter left out by name: the token comes the LSP or MCP way instead.
        await caller.SendAsync($$"""{"jsonrpc":"2.0","id":1,"method":"CountAsync","params":{{@params}}}""");

        Assert.Equal(report.Replace("{0}", "10"), await caller.ReadLineAsync());
        Assert.Equal(report.Replace("{0}", "20"), await caller.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":2}""", await caller.ReadLineAsync());
    }
}
