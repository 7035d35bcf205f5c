namespace JsonRpc.LoadTest.Report;

/// <summary>Where the numbers were measured.</summary>
public sealed record MachineReport
{
    /// <summary>The CPU model (from /proc/cpuinfo).</summary>
    public required string Cpu { get; init; }

    /// <summary>Logical cores this process may use.</summary>
    public int Cores { get; init; }

    /// <summary>Operating system and kernel.</summary>
    public required string Os { get; init; }

    /// <summary>The .NET runtime.</summary>
    public required string Dotnet { get; init; }

    /// <summary>"server" or "workstation" garbage collection.</summary>
    public required string Gc { get; init; }

    /// <summary>
    /// This process's socket completions ran on the socket engine's thread (<c>--inline-io</c>, or
    /// DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 in its environment) rather than on the thread pool.
    /// </summary>
    public bool InlineSocketCompletions { get; init; }

    /// <summary>/proc/loadavg when the tool started: other work on the machine shows here.</summary>
    public required string LoadAverage { get; init; }
}
