namespace JsonRpc.LoadTest.Report;

/// <summary>What one invocation of the tool measured: the machine, then one entry per run.</summary>
public sealed record LoadReport
{
    /// <summary>What <see cref="Tool"/> says in the reports this tool writes.</summary>
    public const string ToolName = "JsonRpc.LoadTest";

    /// <summary>The tool that wrote it.</summary>
    public string Tool { get; init; } = ToolName;

    /// <summary>When the first run started.</summary>
    public DateTimeOffset StartedAt { get; init; }

    /// <summary>The machine and its load.</summary>
    public required MachineReport Machine { get; init; }

    /// <summary>The runs, in the order they ran.</summary>
    public required List<RunReport> Runs { get; init; }

    /// <summary>The stalled-client case, when that is what was run.</summary>
    public StalledClientReport? StalledClient { get; init; }

    /// <summary>The streaming case, when that is what was run.</summary>
    public StreamingReport? Streaming { get; init; }

    /// <summary>The hostile-connections case, when that is what was run.</summary>
    public HostileReport? Hostile { get; init; }

    /// <summary>The noisy-neighbour case, when that is what was run.</summary>
    public NeighbourReport? Neighbour { get; init; }

    /// <summary>Whether every run passed its correctness check (and the stalled-client, hostile, noisy-neighbour and streaming cases, if run, theirs).</summary>
    public bool AllCorrect => Runs.TrueForAll(run => run.Correctness.Passed) && StalledClient is null or { OthersServed: true, Problem: null }
        && Hostile is null or { InnocentServed: true } && Neighbour is null or { Problem: null }
        && (Streaming is null || Streaming.Runs.TrueForAll(run => run.Problem is null));
}
