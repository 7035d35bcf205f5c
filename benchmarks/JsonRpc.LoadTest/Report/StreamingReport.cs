namespace JsonRpc.LoadTest.Report;

/// <summary>The streaming case: async enumerables through the router and directly, prefetch off and on, for each stack run.</summary>
public sealed record StreamingReport
{
    /// <summary>Values per stream.</summary>
    public int StreamLength { get; init; }

    /// <summary>Caller connections, each enumerating one stream after another.</summary>
    public int Connections { get; init; }

    /// <summary>The prefetch and read-ahead of the prefetched runs.</summary>
    public int Prefetch { get; init; }

    /// <summary>Where the router ran (in-process, or its process command).</summary>
    public required string Router { get; init; }

    public required List<StreamingRunReport> Runs { get; init; }

    /// <summary>StreamJsonRpc peers through the router against directly, values per second, prefetch off; null when not run.</summary>
    public double? RoutedShare { get; init; }

    /// <summary>The same with prefetch on.</summary>
    public double? RoutedSharePrefetch { get; init; }

    /// <summary>Our peers (JsonRpcClient callers, a JsonRpcDispatcher generator) through the router against directly, prefetch off; null when not run.</summary>
    public double? OursRoutedShare { get; init; }

    /// <summary>The same with prefetch on.</summary>
    public double? OursRoutedSharePrefetch { get; init; }
}

/// <summary>One run of the streaming case.</summary>
public sealed record StreamingRunReport
{
    /// <summary>"streamjsonrpc" (StreamJsonRpc callers and generator) or "ours" (JsonRpcClient callers, a JsonRpcDispatcher generator).</summary>
    public string Stack { get; init; } = "streamjsonrpc";

    /// <summary>"direct" (callers connected to the generator) or "router".</summary>
    public required string Path { get; init; }

    /// <summary>The prefetch (0: off).</summary>
    public int Prefetch { get; init; }

    /// <summary>Values received in the measured window.</summary>
    public long Values { get; init; }

    /// <summary>Streams begun, in all.</summary>
    public long Streams { get; init; }

    /// <summary>Batches the generator answered in the measured window: calls of <c>values</c> and <c>$/enumerator/next</c> pulls.</summary>
    public long Batches { get; init; }

    /// <summary>Values over batches in the window.</summary>
    public double ValuesPerBatch { get; init; }

    public double Seconds { get; init; }

    public double ValuesPerSecond { get; init; }

    /// <summary>
    /// The router's process over the measured window, when it runs apart (routed runs with <c>--router</c>, or
    /// <c>--connect</c> with <c>--router-pid</c>); its "per call" figures are per streamed value. Null for direct runs.
    /// </summary>
    public ServerProcessReport? RouterProcess { get; init; }

    /// <summary>The router process's CPU time per streamed value, in microseconds; null when not measured.</summary>
    public double? RouterCpuUsPerValue { get; init; }

    /// <summary>The router process's system calls per streamed value; null when not measured (see <see cref="RouterProcess"/> for why).</summary>
    public double? RouterSyscallsPerValue { get; init; }

    /// <summary>The router process's CPU time per batch (per call or pull the generator answered), in microseconds.</summary>
    public double? RouterCpuUsPerBatch { get; init; }

    /// <summary>The router process's system calls per batch.</summary>
    public double? RouterSyscallsPerBatch { get; init; }

    /// <summary>The first thing that went wrong (a value out of order, a stream cut short, an error), or null.</summary>
    public string? Problem { get; init; }
}
