namespace JsonRpc.LoadTest.Report;

/// <summary>The server's own process (the standalone router or nats-server), when it runs apart from the load generator.</summary>
public sealed record ServerProcessReport
{
    /// <summary>How it was started: environment settings, program and arguments; or "pid N" for a process given with --router-pid.</summary>
    public required string Command { get; init; }

    /// <summary>"jit" (CoreCLR loaded) or "native" (for our router: a native AOT build).</summary>
    public string Runtime { get; init; } = "unknown";

    /// <summary>Its garbage collector, seen from its threads: "server", "workstation", or "none" (not .NET).</summary>
    public string Gc { get; init; } = "unknown";

    /// <summary>Its CPU time (user + system) over the measured window, in seconds.</summary>
    public double CpuSeconds { get; init; }

    /// <summary>That CPU time as a share of all cores over the measured window (2 cores fully busy = 100).</summary>
    public double CpuPercent { get; init; }

    /// <summary>Its CPU time over the whole run (start-up, warm-up, window, drain), in seconds.</summary>
    public double TotalCpuSeconds { get; init; }

    /// <summary>Resident memory when it started listening (or when the run began), in MB (10^6 bytes).</summary>
    public double StartRssMb { get; init; }

    /// <summary>Resident memory at the end of the measured window, in MB.</summary>
    public double EndRssMb { get; init; }

    /// <summary>Peak resident memory over its life up to the end of the run (the kernel's VmHWM), in MB.</summary>
    public double PeakRssMb { get; init; }

    /// <summary>Its CPU time per call answered in the window, in microseconds (CPU seconds over the window / calls/s).</summary>
    public double? CpuUsPerCall { get; init; }

    /// <summary>Its system calls over the measured window (perf's <c>raw_syscalls:sys_enter</c>), or null when unavailable.</summary>
    public long? Syscalls { get; init; }

    /// <summary>Its system calls per call answered in the window (syscalls/s over calls/s), or null when unavailable.</summary>
    public double? SyscallsPerCall { get; init; }

    /// <summary>Why the system calls could not be counted (perf absent, not permitted, failed), or null when they were.</summary>
    public string? SyscallsUnavailable { get; init; }
}
