using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// Counts another process's system calls over a stretch of time with Linux perf:
/// <c>perf stat -e raw_syscalls:sys_enter -p PID</c>, started by <see cref="Start"/> and stopped with SIGINT by
/// <see cref="StopAsync"/>, which parses perf's summary: the count and perf's own "seconds time elapsed". The count is
/// used as a rate over that time, so that perf's start-up delay does not bias it. (Not the CSV output of <c>-x</c>:
/// it has no elapsed time, and its <c>duration_time</c> event is summed over the process's threads, 7 s for 1 s of a
/// process with 7 threads.) Where perf is absent, not permitted or fails, the result says why instead of a count; it
/// never throws.
/// </summary>
internal sealed class SyscallCounter
{
    private const string SyscallEvent = "raw_syscalls:sys_enter";
    private const int SigInt = 2;

    private readonly Process? _perf;
    private readonly Task<string>? _errors;
    private readonly string? _unavailable;

    private SyscallCounter(Process? perf, Task<string>? errors, string? unavailable)
    {
        _perf = perf;
        _errors = errors;
        _unavailable = unavailable;
    }

    /// <summary>Starts counting <paramref name="pid"/>'s system calls (all its threads, present and future).</summary>
    public static SyscallCounter Start(int pid)
    {
        if (!OperatingSystem.IsLinux())
        {
            return new SyscallCounter(null, null, "not Linux");
        }

        if (FindOnPath("perf") is not { } perf)
        {
            return new SyscallCounter(null, null, "perf is not installed (Debian: apt-get install linux-perf)");
        }

        var start = new ProcessStartInfo(perf)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "stat", "-e", SyscallEvent, "-p", pid.ToString(CultureInfo.InvariantCulture) })
        {
            start.ArgumentList.Add(argument);
        }

        // Numbers without thousands separators.
        start.Environment["LC_ALL"] = "C";

        try
        {
            var process = Process.Start(start)!;
            // perf stat writes its counts to stderr; stdout stays empty but is drained so that it can never block.
            _ = process.StandardOutput.ReadToEndAsync();
            return new SyscallCounter(process, process.StandardError.ReadToEndAsync(), null);
        }
        catch (Exception ex) when (ex is Win32Exception or InvalidOperationException)
        {
            return new SyscallCounter(null, null, $"perf could not be started: {ex.Message}");
        }
    }

    /// <summary>Stops perf (SIGINT, as Ctrl+C) and returns the count, or why there is none.</summary>
    public async Task<SyscallRate> StopAsync()
    {
        if (_perf is null || _errors is null)
        {
            return new SyscallRate(0, 0, _unavailable ?? "not started");
        }

        using var perf = _perf;
        try
        {
            if (!perf.HasExited)
            {
                NativeMethods.Kill(perf.Id, SigInt);
            }

            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await perf.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                perf.Kill();
                return new SyscallRate(0, 0, "perf did not stop within 10 s of SIGINT");
            }

            var errors = await _errors.WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            return Parse(errors);
        }
        catch (Exception ex) when (ex is InvalidOperationException or Win32Exception or TimeoutException)
        {
            return new SyscallRate(0, 0, $"perf failed: {ex.Message}");
        }
    }

    /// <summary>
    /// Reads perf stat's summary: the line <c>COUNT raw_syscalls:sys_enter</c> and the line <c>S seconds time
    /// elapsed</c>. Anything else (an error message, <c>&lt;not counted&gt;</c>, <c>&lt;not supported&gt;</c>) becomes
    /// the reason the count is unavailable, in perf's own words.
    /// </summary>
    internal static SyscallRate Parse(string output)
    {
        long? count = null;
        double? seconds = null;
        var other = new List<string>();
        foreach (var raw in output.Split('\n'))
        {
            var line = raw.Trim();
            if (line.Length == 0 || line.StartsWith("Performance counter stats", StringComparison.Ordinal) || line.EndsWith("seconds user", StringComparison.Ordinal) || line.EndsWith("seconds sys", StringComparison.Ordinal))
            {
                continue;
            }

            var first = line.Split(' ', 2)[0].Replace(",", string.Empty, StringComparison.Ordinal);
            if (line.Contains(SyscallEvent, StringComparison.Ordinal) && long.TryParse(first, NumberStyles.Integer, CultureInfo.InvariantCulture, out var syscalls))
            {
                count = syscalls;
            }
            else if (line.EndsWith("seconds time elapsed", StringComparison.Ordinal) && double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out var elapsed))
            {
                seconds = elapsed;
            }
            else if (other.Count < 3)
            {
                other.Add(line);
            }
        }

        if (count is { } c && seconds is { } d && d > 0)
        {
            return new SyscallRate(c, d, null);
        }

        return new SyscallRate(0, 0, other.Count == 0 ? "perf printed no count" : $"perf: {string.Join(' ', other)}");
    }

    private static string? FindOnPath(string name)
    {
        foreach (var folder in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var path = Path.Combine(folder, name);
            if (File.Exists(path))
            {
                return path;
            }
        }

        return null;
    }
}

/// <summary>A process's system calls counted by perf over <paramref name="Seconds"/>, or why they could not be (<paramref name="Unavailable"/>).</summary>
internal readonly record struct SyscallRate(long Count, double Seconds, string? Unavailable)
{
    /// <summary>System calls per second, or null when unavailable.</summary>
    public double? PerSecond => Unavailable is null && Seconds > 0 ? Count / Seconds : null;
}
