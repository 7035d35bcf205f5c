using System.Buffers;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Baseline;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Dispatch;
using Nerdbank.Streams;
using StreamJsonRpc;

namespace JsonRpc.Benchmarks;

/// <summary>
/// End to end, bytes in to bytes out: parse the call, find the method, bind <c>[42,23]</c>, call the handler, write
/// the answer into a reused <see cref="IBufferWriter{T}"/>. The baseline does the same on the two-pass converter and
/// its model (<see cref="BaselineDispatcher"/>); ours is <see cref="JsonRpcDispatcher"/> with source-generated
/// parameter and result metadata. Both again over an in-memory duplex pipe with newline framing: ours with
/// <see cref="JsonRpcDispatcher"/> behind a read loop, and StreamJsonRpc's <c>JsonRpc</c> with a target object.
/// </summary>
public class DispatchBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(4096);
    private BaselineDispatcher _baseline = null!;
    private JsonRpcDispatcher _ours = null!;
    private readonly JsonRpcCancellationScope _scope = new();
    private ReadOnlyMemory<byte> _message;
    private PipeClient _oursOverPipe = null!;
    private PipeDispatchServer _oursPipeServer = null!;
    private byte[] _oursInput = [];
    private int _oursAnswers;
    private PipeClient _streamJsonRpc = null!;
    private StreamJsonRpc.JsonRpc _streamJsonRpcServer = null!;
    private byte[] _streamJsonRpcInput = [];
    private int _streamJsonRpcAnswers;

    [ParamsAllValues]
    public DispatchScenario Scenario { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var int32 = BenchmarkJsonContext.Default.Int32;
        _baseline = new BaselineDispatcher()
            .Add("subtract", DispatchSamples.Subtract, int32, int32, int32)
            .Add("fail", DispatchSamples.Fail, int32, int32, int32);
        _ours = new JsonRpcDispatcher()
            .Add("subtract", "minuend", "subtrahend", DispatchSamples.Subtract, int32, int32, int32)
            .Add("fail", "minuend", "subtrahend", DispatchSamples.Fail, int32, int32, int32);
        _message = DispatchSamples.Get(Scenario);

        // Ours and StreamJsonRpc over the same transport: an in-memory duplex pipe, newline framing.
        var (client, server) = FullDuplexStream.CreatePipePair();
        _oursPipeServer = new PipeDispatchServer(server, _ours);
        _oursOverPipe = new PipeClient(client);
        (_oursInput, _oursAnswers) = DispatchSamples.GetFramed(Scenario, batchAsLines: false);

        (client, server) = FullDuplexStream.CreatePipePair();
        _streamJsonRpcServer = new StreamJsonRpc.JsonRpc(new NewLineDelimitedMessageHandler(server, new SystemTextJsonFormatter()), new StreamJsonRpcTarget());
        _streamJsonRpcServer.StartListening();
        _streamJsonRpc = new PipeClient(client);
        (_streamJsonRpcInput, _streamJsonRpcAnswers) = DispatchSamples.GetFramed(Scenario, batchAsLines: true);
        SampleCheck.DispatchersAgree(this, Scenario);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _oursPipeServer.Dispose();
        _streamJsonRpcServer.Dispose();
    }

    [Benchmark(Baseline = true, Description = "Baseline: JsonDocument converter + model")]
    public int Baseline()
    {
        _output.ResetWrittenCount();
        _baseline.Dispatch(_message, _output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "Ours: JsonRpcDispatcher.DispatchAsync")]
    public int Ours()
    {
        _output.ResetWrittenCount();
        var pending = _ours.DispatchAsync(_message, _output);
        if (!pending.IsCompletedSuccessfully)
        {
            pending.AsTask().GetAwaiter().GetResult();
        }

        return _output.WrittenCount;
    }

    /// <summary>
    /// Ours as a server that honours <c>$/cancelRequest</c> dispatches: each call's handler gets a token of its own,
    /// tracked by id in the connection's <see cref="JsonRpcCancellationScope"/> while it runs.
    /// </summary>
    [Benchmark(Description = "Ours: DispatchAsync with a cancellation scope")]
    public int OursCancellable()
    {
        _output.ResetWrittenCount();
        var pending = _ours.DispatchAsync(_message, _output, _scope);
        if (!pending.IsCompletedSuccessfully)
        {
            pending.AsTask().GetAwaiter().GetResult();
        }

        return _output.WrittenCount;
    }

    /// <summary>Ours behind the transport StreamJsonRpc gets: written into a pipe, read, dispatched, framed, flushed, read back.</summary>
    [Benchmark(Description = "Ours: JsonRpcDispatcher over a pipe")]
    public int OursOverPipe()
    {
        _output.ResetWrittenCount();
        return _oursOverPipe.RoundTrip(_oursInput, _oursAnswers, _output);
    }

    /// <summary>
    /// StreamJsonRpc 2.26's <c>JsonRpc</c> with a target object, <c>SystemTextJsonFormatter</c> and newline framing on
    /// an in-memory pipe; the batch goes as 20 single calls, since StreamJsonRpc takes no batches.
    /// </summary>
    [Benchmark(Description = "StreamJsonRpc: JsonRpc over a pipe")]
    public int StreamJsonRpc()
    {
        _output.ResetWrittenCount();
        return _streamJsonRpc.RoundTrip(_streamJsonRpcInput, _streamJsonRpcAnswers, _output);
    }

    /// <summary>The bytes the last call wrote.</summary>
    internal ReadOnlySpan<byte> Written => _output.WrittenSpan;
}
