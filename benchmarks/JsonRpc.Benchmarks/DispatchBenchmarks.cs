using System.Buffers;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Baseline;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Dispatch;

namespace JsonRpc.Benchmarks;

/// <summary>
/// End to end, bytes in to bytes out: parse the call, find the method, bind <c>[42,23]</c>, call the handler, write
/// the answer into a reused <see cref="IBufferWriter{T}"/>. The baseline does the same on the two-pass converter and
/// its model (<see cref="BaselineDispatcher"/>); ours is <see cref="JsonRpcDispatcher"/> with source-generated
/// parameter and result metadata.
/// </summary>
public class DispatchBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(4096);
    private BaselineDispatcher _baseline = null!;
    private JsonRpcDispatcher _ours = null!;
    private ReadOnlyMemory<byte> _message;

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
        SampleCheck.DispatchersAgree(this, Scenario);
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

    /// <summary>The bytes the last call wrote.</summary>
    internal ReadOnlySpan<byte> Written => _output.WrittenSpan;
}
