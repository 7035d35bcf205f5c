using System.Buffers;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Dispatch;

namespace JsonRpc.Benchmarks.Contracts;

/// <summary>
/// The target side of a contract, bytes in to bytes out: <c>subtract [42,23]</c> served by a generated target
/// (<c>dispatcher.AddTarget&lt;IBenchCalculator&gt;</c>: a params struct read by its generated converter) against the
/// hand-written typed registration (<c>Add(name, "minuend", "subtrahend", handler, types…)</c>).
/// </summary>
public class ContractDispatchBenchmarks
{
    private static readonly byte[] Request = """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}"""u8.ToArray();
    private static readonly byte[] NamedRequest = """{"jsonrpc":"2.0","id":1,"method":"subtract","params":{"minuend":42,"subtrahend":23}}"""u8.ToArray();

    private readonly ArrayBufferWriter<byte> _output = new(4096);
    private JsonRpcDispatcher _handWritten = null!;
    private JsonRpcDispatcher _generated = null!;
    private byte[] _request = [];

    [Params(false, true)]
    public bool Named { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var int32 = BenchmarkJsonContext.Default.Int32;
        _handWritten = new JsonRpcDispatcher().Add("subtract", "minuend", "subtrahend",
            static (int minuend, int subtrahend, CancellationToken _) => new ValueTask<int>(minuend - subtrahend), int32, int32, int32);
        _generated = new JsonRpcDispatcher().AddTarget<IBenchCalculator>(new BenchCalculator());
        _request = Named ? NamedRequest : Request;

        var expected = Answer(_handWritten);
        if (expected != """{"jsonrpc":"2.0","id":1,"result":19}""" || Answer(_generated) != expected)
        {
            throw new InvalidOperationException($"The dispatchers disagree: {expected} / {Answer(_generated)}");
        }
    }

    [Benchmark(Baseline = true)]
    public bool HandWritten() => Dispatch(_handWritten);

    [Benchmark]
    public bool Generated() => Dispatch(_generated);

    private bool Dispatch(JsonRpcDispatcher dispatcher)
    {
        _output.ResetWrittenCount();
        var pending = dispatcher.DispatchAsync(_request, _output);
        return pending.IsCompletedSuccessfully ? pending.Result : pending.AsTask().GetAwaiter().GetResult();
    }

    private string Answer(JsonRpcDispatcher dispatcher)
    {
        Dispatch(dispatcher);
        return System.Text.Encoding.UTF8.GetString(_output.WrittenSpan);
    }
}
