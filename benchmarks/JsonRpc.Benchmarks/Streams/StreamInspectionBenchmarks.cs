using System.Text;
using BenchmarkDotNet.Attributes;
using JsonRpc.Server.Streams;

namespace JsonRpc.Benchmarks.Streams;

/// <summary>
/// What the router's stream and progress inspection adds to a routed call that carries no token: on the way to the
/// provider, <see cref="StreamScanner.CollectProgress"/> (the top-level integers and the LSP and MCP token members of
/// the params) and the enumerable search of the params; on the way back, the enumerable search of the result. The
/// params are the routed-call benchmark's <c>[1]</c>, an LSP-shaped object without tokens, and a 1 KiB string; the
/// result is <c>1</c> or the same kilobyte. Everything else a routed call does is as before.
/// </summary>
public class StreamInspectionBenchmarks
{
    private readonly List<ProgressToken> _candidates = new(StreamScanner.MaxIntegerCandidates);
    private byte[] _params = [];
    private byte[] _result = [];

    [Params("[1]", "lsp", "1KiB")]
    public string Shape { get; set; } = "[1]";

    [GlobalSetup]
    public void Setup()
    {
        var kilobyte = "\"" + new string('x', 1024) + "\"";
        _params = Encoding.UTF8.GetBytes(Shape switch
        {
            "[1]" => "[1]",
            "lsp" => """{"textDocument":{"uri":"file:///src/a.cs"},"position":{"line":12,"character":8},"context":{"includeDeclaration":true}}""",
            _ => "[" + kilobyte + "]",
        });
        _result = Encoding.UTF8.GetBytes(Shape == "1KiB" ? kilobyte : "1");
    }

    [Benchmark(Description = "call + answer inspected")]
    public int Inspect()
    {
        _candidates.Clear();
        StreamScanner.CollectProgress(_params, _candidates);
        var found = StreamScanner.MayHoldEnumerable(_params) ? 1 : 0;
        found += StreamScanner.MayHoldEnumerable(_result) ? 1 : 0;
        return found + _candidates.Count;
    }
}
