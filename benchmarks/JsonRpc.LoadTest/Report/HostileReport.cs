namespace JsonRpc.LoadTest.Report;

/// <summary>
/// Hostile connections against a router process beside innocent callers: what they cost the router in resident memory,
/// and what the innocent callers kept of their throughput (against a phase without them, same router, same callers).
/// </summary>
public sealed record HostileReport
{
    /// <summary>The router process and its CPU and memory over the case.</summary>
    public required ServerProcessReport Router { get; init; }

    /// <summary>The hostile connections, one entry each.</summary>
    public required List<HostileClientReport> Clients { get; init; }

    /// <summary>The router's resident memory after the innocent-only phase, with no call in flight, in MB: its idle RSS.</summary>
    public double IdleRssMb { get; init; }

    /// <summary>The highest resident memory seen during the hostile phase (sampled every 20 ms, and the kernel's peak), in MB.</summary>
    public double PeakRssMb { get; init; }

    /// <summary>Peak minus idle, in MB.</summary>
    public double RiseMb { get; init; }

    /// <summary>The most the rise may be: 64 MiB for one hostile connection, 256 MiB for up to eight.</summary>
    public double RiseLimitMb { get; init; }

    /// <summary>Innocent calls per second without the hostile connections.</summary>
    public double BaselineCallsPerSecond { get; init; }

    /// <summary>Innocent calls per second with them.</summary>
    public double HostileCallsPerSecond { get; init; }

    /// <summary><see cref="HostileCallsPerSecond"/> over <see cref="BaselineCallsPerSecond"/>; the target is at least 0.8.</summary>
    public double ThroughputKept { get; init; }

    /// <summary>Innocent calls made in both phases; every one must be answered once, with its own payload.</summary>
    public long InnocentCalls { get; init; }

    /// <summary>Whether every innocent call was answered once and correctly.</summary>
    public bool InnocentServed { get; init; }

    /// <summary>Whether the rise stayed within <see cref="RiseLimitMb"/>.</summary>
    public bool WithinMemoryTarget => RiseMb <= RiseLimitMb;

    /// <summary>Whether the innocent callers kept at least 80% of their throughput.</summary>
    public bool WithinThroughputTarget => ThroughputKept >= 0.8;

    /// <summary>What went wrong for the innocent callers, if anything.</summary>
    public string? Problem { get; init; }
}

/// <summary>One hostile connection of a <see cref="HostileReport"/>.</summary>
public sealed record HostileClientReport
{
    /// <summary>non-reading, batch-holding, slowloris, oversize or deep-nesting.</summary>
    public required string Kind { get; init; }

    /// <summary>Bytes it wrote, over all its connections.</summary>
    public long BytesSent { get; init; }

    /// <summary>Times the router closed its connection (it then connected again).</summary>
    public long Drops { get; init; }

    /// <summary>JSON-RPC errors it was answered with, for the kinds that read.</summary>
    public long ErrorsReceived { get; init; }
}
