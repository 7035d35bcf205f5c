namespace JsonRpc.LoadTest.Report;

/// <summary>CPU use during the measured window, as percentages of the whole machine (all cores = 100).</summary>
public sealed record CpuReport
{
    /// <summary>This process: the callers and providers, and the server when it runs in-process.</summary>
    public double ProcessPercent { get; init; }

    /// <summary>The machine (/proc/stat), this process included.</summary>
    public double MachinePercent { get; init; }

    /// <summary>Everything else on the machine: machine minus this process and minus the server's process where it runs apart.</summary>
    public double OthersPercent { get; init; }

    /// <summary>The one-minute load average at the end of the window.</summary>
    public double LoadAverage { get; init; }
}
