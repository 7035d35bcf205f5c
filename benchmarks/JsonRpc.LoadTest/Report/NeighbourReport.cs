namespace JsonRpc.LoadTest.Report;

/// <summary>
/// The noisy-neighbour case (<c>--flood-token</c>): the measured callers alone and beside a flood of calls from
/// another identity over its rate quota, alternating, one router process; what the measured callers kept, and what
/// the flood was answered.
/// </summary>
public sealed record NeighbourReport
{
    /// <summary>The router process over the whole case (its command, runtime, GC and memory; CPU over all rounds).</summary>
    public required ServerProcessReport Router { get; init; }

    /// <summary>Measured caller connections (raw callers, authenticated with <c>--token</c>).</summary>
    public int Connections { get; init; }

    /// <summary>Calls in flight per measured connection.</summary>
    public int Window { get; init; }

    /// <summary>Echoed payload, in characters.</summary>
    public int PayloadBytes { get; init; }

    /// <summary>Flood connections (authenticated with <c>--flood-token</c>).</summary>
    public int FloodConnections { get; init; }

    /// <summary>Calls in flight per flood connection.</summary>
    public int FloodWindow { get; init; }

    /// <summary>Each phase's measured window, in seconds.</summary>
    public double PhaseSeconds { get; init; }

    /// <summary>The rounds, in order: each the measured callers alone, then beside the flood.</summary>
    public required List<NeighbourRoundReport> Rounds { get; init; }

    /// <summary>The median over the rounds of the measured calls/s with the flood over without.</summary>
    public double MedianRatio { get; init; }

    /// <summary>Measured calls over every phase (warm-up included); each must be answered once, correctly.</summary>
    public long MeasuredCalls { get; init; }

    /// <summary>Flood calls over every phase; each must be answered once, with a result or a refusal.</summary>
    public long FloodCalls { get; init; }

    /// <summary>Flood calls refused <c>-32015</c> with a <c>retry_after_ms</c> above zero, over every phase.</summary>
    public long FloodRefusals { get; init; }

    /// <summary>What went wrong, or null: a measured call not answered once correctly, a flood call lost, answered twice or with another error, or no refusal at all.</summary>
    public string? Problem { get; init; }
}

/// <summary>One round of a <see cref="NeighbourReport"/>.</summary>
public sealed record NeighbourRoundReport
{
    /// <summary>1, 2, 3, …</summary>
    public int Round { get; init; }

    /// <summary>The measured callers alone.</summary>
    public required NeighbourPhaseReport Alone { get; init; }

    /// <summary>The same callers beside the flood.</summary>
    public required NeighbourPhaseReport Flooded { get; init; }

    /// <summary>The flooded phase's calls/s over the phase alone.</summary>
    public double Ratio { get; init; }
}

/// <summary>One phase: the measured callers' throughput and latency, the router's CPU, and the flood's answers when it ran.</summary>
public sealed record NeighbourPhaseReport
{
    /// <summary>Measured calls answered in the window over its length.</summary>
    public double CallsPerSecond { get; init; }

    /// <summary>Their latency (send to answer).</summary>
    public required LatencyReport Latency { get; init; }

    /// <summary>The router process over the window: CPU, and per measured call its CPU and system calls.</summary>
    public ServerProcessReport? Router { get; init; }

    /// <summary>The router's CPU microseconds per answer of either kind in the window (measured calls and flood answers).</summary>
    public double? RouterCpuUsPerAnswer { get; init; }

    /// <summary>This process (the measured callers and the flood), the machine and the rest over the window: the flood's cost to the load generator shows here.</summary>
    public CpuReport? Cpu { get; init; }

    /// <summary>The flood, in the flooded phase; null alone.</summary>
    public FloodReport? Flood { get; init; }
}

/// <summary>What the flood's connections sent and were answered in one phase.</summary>
public sealed record FloodReport
{
    /// <summary>Calls sent.</summary>
    public long Calls { get; init; }

    /// <summary>Calls answered with a result (the echo of their payload).</summary>
    public long Results { get; init; }

    /// <summary>Calls refused <c>-32015</c> with a <c>retry_after_ms</c> above zero.</summary>
    public long Refusals { get; init; }

    /// <summary>Any other answer: another error, or a refusal without <c>retry_after_ms</c>.</summary>
    public long OtherErrors { get; init; }

    /// <summary>Calls with no answer when the phase ended.</summary>
    public long Missing { get; init; }

    /// <summary>Refusals that arrived in the measured window, per second.</summary>
    public double RefusalsPerSecond { get; init; }

    /// <summary>Results that arrived in the measured window, per second (the quota lets about its rate through).</summary>
    public double ResultsPerSecond { get; init; }

    /// <summary>The smallest and largest <c>retry_after_ms</c> answered.</summary>
    public long MinRetryAfterMs { get; init; }

    /// <inheritdoc cref="MinRetryAfterMs"/>
    public long MaxRetryAfterMs { get; init; }
}
