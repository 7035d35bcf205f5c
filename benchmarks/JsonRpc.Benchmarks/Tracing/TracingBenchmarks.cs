using System.Buffers;
using System.Diagnostics;
using System.Text;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Benchmarks.Security;
using JsonRpc.Dispatch;
using JsonRpc.Server;

namespace JsonRpc.Benchmarks.Tracing;

/// <summary>
/// What tracing costs: the dispatch of <c>subtract(42, 23)</c> (bytes in, bytes out, as in <see cref="DispatchBenchmarks"/>)
/// and a call routed through an in-process router over pipes (as in <see cref="SecuredRoutedCallBenchmarks"/>, one call
/// at a time), with nobody listening to the JsonRpc sources and with an <see cref="ActivityListener"/> that records
/// every span (all data, sampled; the spans are dropped when they stop, as an exporter's batch would take them).
/// The caller sends a top-level <c>traceparent</c> in both cases.
/// </summary>
public class TracingBenchmarks
{
    private const string Call = """{"jsonrpc":"2.0","id":1,"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","method":"subtract","params":[42,23]}""";

    private readonly ArrayBufferWriter<byte> _output = new(4096);
    private JsonRpcDispatcher _dispatcher = null!;
    private ReadOnlyMemory<byte> _message;
    private JsonRpcRouter _router = null!;
    private (RouterPipe Caller, RouterPipe Provider) _pipes;
    private byte[] _routed = [];
    private ActivityListener? _listener;

    [Params(false, true)]
    public bool Listener { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        if (Listener)
        {
            _listener = new ActivityListener
            {
                ShouldListenTo = static source => source.Name.StartsWith("JsonRpc.", StringComparison.Ordinal),
                Sample = static (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            };
            ActivitySource.AddActivityListener(_listener);
        }

        var int32 = BenchmarkJsonContext.Default.Int32;
        _dispatcher = new JsonRpcDispatcher().Add("subtract", "minuend", "subtrahend", DispatchSamples.Subtract, int32, int32, int32);
        _message = Encoding.UTF8.GetBytes(Call);
        if (Dispatch() == 0 || !Encoding.UTF8.GetString(_output.WrittenSpan).Contains("\"result\":19", StringComparison.Ordinal))
        {
            throw new InvalidOperationException("The dispatcher answered " + Encoding.UTF8.GetString(_output.WrittenSpan));
        }

        (_router, _pipes) = SecuredRoutedCallBenchmarks.Start(security: null);
        _routed = Encoding.UTF8.GetBytes(Call.Replace("subtract", SecurityBenchmarkPolicy.RoutedMethod, StringComparison.Ordinal) + "\n");
        Routed();
        if (!Encoding.UTF8.GetString(_output.WrittenSpan).Contains("\"id\":1,\"result\":1", StringComparison.Ordinal))
        {
            throw new InvalidOperationException("The router answered " + Encoding.UTF8.GetString(_output.WrittenSpan));
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _pipes.Caller.Complete();
        _pipes.Provider.Complete();
        _router.Dispose();
        _listener?.Dispose();
    }

    [Benchmark(Description = "dispatch subtract(42, 23)")]
    public int Dispatch()
    {
        _output.ResetWrittenCount();
        _dispatcher.DispatchAsync(_message, _output).GetAwaiter().GetResult();
        return _output.WrittenCount;
    }

    [Benchmark(Description = "routed call, one at a time")]
    public int Routed()
    {
        _output.ResetWrittenCount();
        return _pipes.Caller.Client.RoundTrip(_routed, 1, _output);
    }
}
