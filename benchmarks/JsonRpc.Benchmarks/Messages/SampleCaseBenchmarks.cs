using BenchmarkDotNet.Attributes;

namespace JsonRpc.Benchmarks.Messages;

/// <summary>The parameters of every per-message benchmark: each kind, small and with ~1 KB of payload.</summary>
public abstract class SampleCaseBenchmarks
{
    [ParamsAllValues]
    public SampleKind Kind { get; set; }

    [ParamsAllValues]
    public PayloadSize Payload { get; set; }
}
