using System.Text.Json.Serialization;

namespace JsonRpc.LoadTest.Report;

/// <summary>The soak with faults: what ran, what was injected, every call's fate, and the samples over time.</summary>
public sealed record SoakReport
{
    public string Tool { get; init; } = "JsonRpc.LoadTest --soak";

    public DateTimeOffset StartedAt { get; init; }

    public required MachineReport Machine { get; init; }

    /// <summary>Node A's command line (node B's differs in its name and port).</summary>
    public required string Router { get; init; }

    public double Seconds { get; init; }

    public double WarmupSeconds { get; init; }

    /// <summary>The settle time: the RSS baseline is the first whole round of faults that starts after it.</summary>
    public double SettleSeconds { get; init; }

    /// <summary>Node A's mean RSS over the first whole round of faults (before settling), for comparison.</summary>
    public double RssFirstRoundMb { get; init; }

    /// <summary>
    /// The "after warm-up" figures are means from here to <see cref="AfterWarmupUntilSeconds"/>: the first whole round
    /// of faults that starts after <see cref="SettleSeconds"/> (for a soak too short for that, the minute after the
    /// first round).
    /// </summary>
    public double SettledAtSeconds { get; init; }

    public double AfterWarmupUntilSeconds { get; init; }

    /// <summary>The "at the end" figures are means over this window: the last whole round (or the last minute).</summary>
    public double EndFromSeconds { get; init; }

    public double EndUntilSeconds { get; init; }

    /// <summary>Node A's RSS at the first sample, in MB.</summary>
    public double RssAtStartMb { get; init; }

    /// <summary>The faults injected, in order, with when (seconds from the start) and how each went.</summary>
    public required List<SoakFault> Faults { get; init; }

    /// <summary>Raw callers' calls: sent, and how each ended.</summary>
    public long Sent { get; init; }

    public long Results { get; init; }

    public long Errors { get; init; }

    /// <summary>In flight when their caller closed its connection on purpose: nobody is left to answer them.</summary>
    public long Abandoned { get; init; }

    /// <summary>Never answered although their connection stayed open: must be 0.</summary>
    public long Lost { get; init; }

    /// <summary>In flight when the router closed a caller's connection (node A is never killed): must be 0.</summary>
    public long LostWithConnection { get; init; }

    /// <summary>Results that were not the call's own payload: must be 0.</summary>
    public long Mismatches { get; init; }

    /// <summary>Answers to no call in flight (never sent, or answered twice): must be 0.</summary>
    public long Strays { get; init; }

    /// <summary>Errors without an id that the router sent the raw callers (notices such as an idle timeout), not answers.</summary>
    public long Notices { get; init; }

    /// <summary>Raw callers' connection attempts that failed (node A down or refusing), each retried 200 ms later.</summary>
    public long ConnectFailures { get; init; }

    /// <summary>Error answers by code.</summary>
    public required Dictionary<string, long> ErrorCodes { get; init; }

    /// <summary>JsonRpcClient callers' calls (echo, and slow calls cancelled on purpose): made, and how each ended.</summary>
    public long ClientCalls { get; init; }

    public long ClientResults { get; init; }

    public long ClientErrors { get; init; }

    public long ClientCancelled { get; init; }

    public long ClientConnectionLost { get; init; }

    public long ClientMismatches { get; init; }

    /// <summary>
    /// Client calls sent that got no answer within the client's timeout (the router's call timeout plus 5 s: the router
    /// answers every call by then): lost answers, must be 0. A call that timed out waiting for a connection was never
    /// sent and counts as connection lost.
    /// </summary>
    public long ClientTimedOut { get; init; }

    /// <summary>Client calls that had not returned at the end: must be 0.</summary>
    public long ClientHung { get; init; }

    public long EventsPublished { get; init; }

    public long EventsReceived { get; init; }

    /// <summary>Node A's mean RSS over the window after warm-up and over the window at the end, in MB.</summary>
    public double RssAfterWarmupMb { get; init; }

    public double RssAtEndMb { get; init; }

    /// <summary>(end − after warm-up) / after warm-up; the target is within ±10%.</summary>
    public double RssChange { get; init; }

    public double ThreadsAfterWarmup { get; init; }

    public double ThreadsAtEnd { get; init; }

    public double HandlesAfterWarmup { get; init; }

    public double HandlesAtEnd { get; init; }

    /// <summary>Whether every call got exactly one answer (or was abandoned with its connection), none wrong, none twice.</summary>
    public bool ExactlyOnce => Lost == 0 && LostWithConnection == 0 && Mismatches == 0 && Strays == 0 && ClientHung == 0 && ClientMismatches == 0 && ClientTimedOut == 0 && Sent > 0;

    /// <summary>Whether node A's RSS at the end is within 10% of its RSS after warm-up (false for a soak too short to have both).</summary>
    public bool NoLeak => RssAfterWarmupMb > 0 && RssAtEndMb > 0 && Math.Abs(RssChange) <= 0.10;

    public bool Passed => ExactlyOnce && NoLeak;

    /// <summary>One sample a second of node A.</summary>
    public required List<SoakSample> Samples { get; init; }
}

/// <summary>One fault the soak injected.</summary>
public sealed record SoakFault(double AtSeconds, string Kind, string Outcome);

/// <summary>Node A and the callers over one second.</summary>
public sealed record SoakSample(double AtSeconds, double RssMb, long Threads, long Handles, double CallsPerSecond, double P50Ms, double P99Ms);

/// <summary>Source-generated JSON for the soak report.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower, WriteIndented = true)]
[JsonSerializable(typeof(SoakReport))]
public sealed partial class SoakReportJsonContext : JsonSerializerContext;
