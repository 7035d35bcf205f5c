namespace JsonRpc.LoadTest.Report;

/// <summary>The streaming case: StreamJsonRpc async enumerables through the router and directly, prefetch off and on.</summary>
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

    /// <summary>Through the router against directly, values per second, prefetch off.</summary>
    public double RoutedShare { get; init; }

    /// <summary>The same with prefetch on.</summary>
    public double RoutedSharePrefetch { get; init; }
}

/// <summary>One run of the streaming case.</summary>
public sealed record StreamingRunReport
{
    /// <summary>"direct" (two StreamJsonRpc peers) or "router".</summary>
    public required string Path { get; init; }

    /// <summary>The prefetch (0: off).</summary>
    public int Prefetch { get; init; }

    /// <summary>Values received in the measured window.</summary>
    public long Values { get; init; }

    /// <summary>Streams begun, in all.</summary>
    public long Streams { get; init; }

    public double Seconds { get; init; }

    public double ValuesPerSecond { get; init; }

    /// <summary>The first thing that went wrong (a value out of order, a stream cut short, an error), or null.</summary>
    public string? Problem { get; init; }
}
