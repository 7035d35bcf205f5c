using System.Net;
using System.Net.Sockets;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Client;
using JsonRpc.Dispatch;
using Nerdbank.Streams;
using StreamJsonRpc;

namespace JsonRpc.Benchmarks.Contracts;

/// <summary>
/// A whole call, caller to target and back, over loopback TCP (JsonRpcClient connects over TCP or a WebSocket only):
/// the hand-written typed path (<c>CallAsync(name, 42, 23, types…)</c> to <c>Add(name, …)</c>) against a generated
/// proxy calling a generated target, and StreamJsonRpc's proxy (its <c>Attach</c>, System.Text.Json formatter) calling
/// the same generated target. Each caller has its own connection to its own server loop
/// (<see cref="PipeDispatchServer"/>: newline framing, one flush per read). Each path runs one call at a time, and 32
/// calls in flight at once (the time shown per call).
/// </summary>
[GroupBenchmarksBy(BenchmarkDotNet.Configs.BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ContractCallBenchmarks
{
    private readonly List<IDisposable> _owned = [];
    private JsonRpcClient _handWrittenClient = null!;
    private JsonRpcClient _generatedClient = null!;
    private IBenchCalculator _generated = null!;
    private IBenchCalculator _streamJsonRpc = null!;

    [GlobalSetup]
    public void Setup()
    {
        var int32 = BenchmarkJsonContext.Default.Int32;
        var handWrittenServer = new JsonRpcDispatcher().Add("subtract", "minuend", "subtrahend",
            static (int minuend, int subtrahend, CancellationToken _) => new ValueTask<int>(minuend - subtrahend), int32, int32, int32);
        var generatedServer = new JsonRpcDispatcher().AddTarget<IBenchCalculator>(new BenchCalculator());

        _handWrittenClient = ConnectClient(handWrittenServer);
        _generatedClient = ConnectClient(generatedServer);
        _generated = _generatedClient.Attach<IBenchCalculator>();

        var (stream, _) = Serve(generatedServer);
        var rpc = new StreamJsonRpc.JsonRpc(JsonRpc.Peers.StreamJsonRpcNewline.Create(stream));
        _streamJsonRpc = rpc.Attach<IBenchCalculator>();
        rpc.StartListening();
        _owned.Add(rpc);

        if (HandWritten().GetAwaiter().GetResult() != 19 || Generated().GetAwaiter().GetResult() != 19 || StreamJsonRpcProxy().GetAwaiter().GetResult() != 19)
        {
            throw new InvalidOperationException("A caller got a wrong answer.");
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _handWrittenClient.Dispose();
        _generatedClient.Dispose();
        foreach (var owned in _owned)
        {
            try
            {
                owned.Dispose();
            }
            catch (AggregateException ex) when (ex.InnerException is IOException)
            {
                // A server loop ends with the connection it reads, closed just before: that is how it ends here.
            }
        }
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("one call")]
    public async Task<int> HandWritten()
    {
        var int32 = BenchmarkJsonContext.Default.Int32;
        return await _handWrittenClient.CallAsync("subtract", 42, 23, int32, int32, int32).ConfigureAwait(false);
    }

    [Benchmark]
    [BenchmarkCategory("one call")]
    public async Task<int> Generated() => await _generated.SubtractAsync(42, 23).ConfigureAwait(false);

    [Benchmark]
    [BenchmarkCategory("one call")]
    public async Task<int> StreamJsonRpcProxy() => await _streamJsonRpc.SubtractAsync(42, 23).ConfigureAwait(false);

    // The same calls, InFlight at once and the time given per call: the socket round trip (and the thread-pool wake-ups
    // around it, which swing most on a 2-core machine) is shared by many calls, so what each path costs shows more.
    private const int InFlight = 32;

    [Benchmark(Baseline = true, OperationsPerInvoke = InFlight)]
    [BenchmarkCategory("32 in flight")]
    public Task HandWrittenInFlight()
    {
        var int32 = BenchmarkJsonContext.Default.Int32;
        return AllAsync(() => _handWrittenClient.CallAsync("subtract", 42, 23, int32, int32, int32));
    }

    [Benchmark(OperationsPerInvoke = InFlight)]
    [BenchmarkCategory("32 in flight")]
    public Task GeneratedInFlight() => AllAsync(() => _generated.SubtractAsync(42, 23));

    [Benchmark(OperationsPerInvoke = InFlight)]
    [BenchmarkCategory("32 in flight")]
    public Task StreamJsonRpcProxyInFlight() => AllAsync(() => _streamJsonRpc.SubtractAsync(42, 23));

    private static async Task AllAsync(Func<ValueTask<int>> call)
    {
        var calls = new ValueTask<int>[InFlight];
        for (var i = 0; i < InFlight; i++)
        {
            calls[i] = call();
        }

        for (var i = 0; i < InFlight; i++)
        {
            if (await calls[i].ConfigureAwait(false) != 19)
            {
                throw new InvalidOperationException("A caller got a wrong answer.");
            }
        }
    }

    private JsonRpcClient ConnectClient(JsonRpcDispatcher dispatcher)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var options = new JsonRpcClientOptions { KeepAliveInterval = Timeout.InfiniteTimeSpan, Reconnect = new JsonRpcReconnectOptions { Enabled = false } };
        var connecting = JsonRpcClient.ConnectAsync("127.0.0.1", ((IPEndPoint)listener.LocalEndpoint).Port, options);
        Accept(listener, dispatcher);
        return connecting.GetAwaiter().GetResult();
    }

    private (NetworkStream Client, PipeDispatchServer Server) Serve(JsonRpcDispatcher dispatcher)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var client = new TcpClient { NoDelay = true };
        client.Connect((IPEndPoint)listener.LocalEndpoint);
        _owned.Add(client);
        return (client.GetStream(), Accept(listener, dispatcher));
    }

    private PipeDispatchServer Accept(TcpListener listener, JsonRpcDispatcher dispatcher)
    {
        var socket = listener.AcceptSocket();
        socket.NoDelay = true;
        var stream = new NetworkStream(socket, ownsSocket: true);
        _owned.Add(stream);
        var server = new PipeDispatchServer(stream.UsePipe(), dispatcher);
        _owned.Add(server);
        return server;
    }
}
