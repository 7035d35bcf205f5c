using System.Diagnostics;
using JsonRpc.Testing;

namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>
/// A test that needs Linux perf able to count a process's system calls (<c>perf stat -e raw_syscalls:sys_enter</c>):
/// skipped, saying why, where perf is absent or may not count here (not root and perf_event_paranoid too high, or a
/// container that forbids perf_event_open). Under CI, where .ci/run installs linux-perf, a missing perf fails instead.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class PerfFactAttribute : FactAttribute
{
    private static readonly Lazy<string?> Problem = new(Probe);

    public PerfFactAttribute()
    {
        if (Problem.Value is { } problem)
        {
            Skip = problem.StartsWith("perf is not installed", StringComparison.Ordinal) ? RequiredServer.SkipIfAbsent(false, problem) : problem;
        }
    }

    /// <summary>Whether perf counts system calls here.</summary>
    public static bool IsAvailable => Problem.Value is null;

    // Counts the system calls of `true`: null when perf printed a count, else why not.
    private static string? Probe()
    {
        var start = new ProcessStartInfo("perf", ["stat", "-x", ",", "-e", "raw_syscalls:sys_enter", "--", "true"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        try
        {
            using var perf = Process.Start(start)!;
            var errors = perf.StandardError.ReadToEndAsync();
            perf.StandardOutput.ReadToEnd();
            if (!perf.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                perf.Kill();
                return "perf stat did not finish within 30 s";
            }

            var text = errors.Result;
            return perf.ExitCode == 0 && text.Contains(",raw_syscalls:sys_enter,", StringComparison.Ordinal) && char.IsAsciiDigit(text.TrimStart()[0])
                ? null
                : $"perf cannot count system calls here (exit {perf.ExitCode}): {text.Trim().ReplaceLineEndings(" ")}";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "perf is not installed (apt-get install linux-perf); .ci/run installs it.";
        }
    }
}
