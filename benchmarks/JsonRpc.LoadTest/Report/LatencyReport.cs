namespace JsonRpc.LoadTest.Report;

/// <summary>Round-trip latency, send to answer, in microseconds.</summary>
public sealed record LatencyReport
{
    /// <summary>Median.</summary>
    public double P50Us { get; init; }

    /// <summary>99th percentile.</summary>
    public double P99Us { get; init; }

    /// <summary>99.9th percentile.</summary>
    public double P999Us { get; init; }

    /// <summary>The slowest call, exact.</summary>
    public double MaxUs { get; init; }

    /// <summary>The mean, exact.</summary>
    public double MeanUs { get; init; }

    /// <summary>The percentiles, max and mean of <paramref name="latency"/> (nanoseconds), in microseconds.</summary>
    internal static LatencyReport From(Engine.LatencyHistogram latency) => new()
    {
        P50Us = Micros(latency.Percentile(0.50)),
        P99Us = Micros(latency.Percentile(0.99)),
        P999Us = Micros(latency.Percentile(0.999)),
        MaxUs = Micros(latency.Max),
        MeanUs = Math.Round(latency.Mean / 1000, 1),
    };

    /// <summary>How the numbers were taken.</summary>
    public string Method { get; init; } = LatencyMethod;

    /// <summary>The text of <see cref="Method"/>.</summary>
    public const string LatencyMethod =
        "Stopwatch.GetTimestamp() when the request is written into the send buffer (once per send) and when the receive that brought the answer returned "
        + "(JsonRpcClient and NATS.Net callers: when a call completed, which also starts the lane's next call, checking the answer and building the next payload included); "
        + "log-linear histogram (exact below 1024 ns, then 512 buckets per power of two, <= 0.2% wide); "
        + "a percentile is the upper edge of the bucket holding the ceil(q*n)-th value; max and mean exact";

    private static double Micros(long nanoseconds) => Math.Round(nanoseconds / 1000.0, 1);
}
