namespace JsonRpc.LoadTest.Report;

/// <summary>The in-process router's own counters over the run (differences from before it started).</summary>
public sealed record RouterReport
{
    /// <summary>Calls forwarded to a provider.</summary>
    public long CallsRouted { get; init; }

    /// <summary>Calls served by host methods (direct mode).</summary>
    public long ServerCalls { get; init; }

    /// <summary>Messages read.</summary>
    public long MessagesIn { get; init; }

    /// <summary>Messages written.</summary>
    public long MessagesOut { get; init; }

    /// <summary>JSON bytes read.</summary>
    public long BytesIn { get; init; }

    /// <summary>JSON bytes written.</summary>
    public long BytesOut { get; init; }

    /// <summary>Errors the router answered or counted.</summary>
    public long Errors { get; init; }

    /// <summary>Answers the router dropped (late, foreign).</summary>
    public long AnswersDropped { get; init; }
}
