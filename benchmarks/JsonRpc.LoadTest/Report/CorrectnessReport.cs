namespace JsonRpc.LoadTest.Report;

/// <summary>The check that every call got exactly one correct answer, over the whole run (warm-up included).</summary>
public sealed record CorrectnessReport
{
    /// <summary>Every call sent was answered exactly once with the echo of its own payload, and nothing else came.</summary>
    public bool Passed { get; init; }

    /// <summary>Calls sent.</summary>
    public long CallsSent { get; init; }

    /// <summary>Calls answered (first answers, correct or not).</summary>
    public long Answers { get; init; }

    /// <summary>Calls never answered.</summary>
    public long Missing { get; init; }

    /// <summary>Second answers to a call.</summary>
    public long Duplicates { get; init; }

    /// <summary>Answers to no call that was sent, or unreadable ones.</summary>
    public long Unexpected { get; init; }

    /// <summary>Answers whose result was not the echo of that call's payload.</summary>
    public long Mismatches { get; init; }

    /// <summary>Calls answered with a JSON-RPC error.</summary>
    public long ErrorAnswers { get; init; }

    /// <summary>Connections that failed before they were done.</summary>
    public long FailedConnections { get; init; }

    /// <summary>The first problem seen, if any.</summary>
    public string? FirstProblem { get; init; }
}
