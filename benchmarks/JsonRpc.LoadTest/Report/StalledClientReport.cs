namespace JsonRpc.LoadTest.Report;

/// <summary>
/// One connection that sends calls as fast as the router takes them and never reads an answer, against a router
/// process with an echo provider: what it costs the router in memory, and whether the router dropped it.
/// </summary>
public sealed record StalledClientReport
{
    /// <summary>The router process and its CPU and memory over the case.</summary>
    public required ServerProcessReport Router { get; init; }

    /// <summary>Characters in each call's echoed string.</summary>
    public int PayloadBytes { get; init; }

    /// <summary>The method it calls: <c>echo</c> (routed to the provider) or one the router answers itself.</summary>
    public string Method { get; init; } = "echo";

    /// <summary>The router's resident memory just before the stalled client started sending, in MB.</summary>
    public double BaselineRssMb { get; init; }

    /// <summary>The highest resident memory seen while it was connected (sampled every 20 ms) and the kernel's peak, whichever is higher, in MB.</summary>
    public double PeakRssMb { get; init; }

    /// <summary>Peak minus baseline, in MB: what one misbehaving connection cost.</summary>
    public double RiseMb { get; init; }

    /// <summary>Whether the router closed the connection.</summary>
    public bool Dropped { get; init; }

    /// <summary>Seconds from the first call to the drop (or to the end of the case when not dropped).</summary>
    public double Seconds { get; init; }

    /// <summary>Calls the client wrote.</summary>
    public long CallsSent { get; init; }

    /// <summary>Bytes the client wrote.</summary>
    public long BytesSent { get; init; }

    /// <summary>Whether a well-behaved caller on the same router was answered correctly throughout.</summary>
    public bool OthersServed { get; init; }

    /// <summary>Calls the well-behaved caller made, every one answered with its own payload when <see cref="OthersServed"/>.</summary>
    public long OtherCalls { get; init; }

    /// <summary>What went wrong, if anything.</summary>
    public string? Problem { get; init; }
}
