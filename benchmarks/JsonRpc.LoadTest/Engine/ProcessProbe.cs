using System.Diagnostics;
using System.Globalization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// Another process's CPU time and memory, read from /proc: CPU time through <see cref="Process.TotalProcessorTime"/>,
/// resident memory (<c>VmRSS</c>) and its peak (<c>VmHWM</c>, the high-water mark the kernel keeps) from
/// <c>/proc/PID/status</c>. Each read is best effort: a process that has exited reads as zero.
/// </summary>
internal sealed class ProcessProbe(int pid)
{
    public int Pid { get; } = pid;

    public TimeSpan CpuTime()
    {
        try
        {
            using var process = Process.GetProcessById(Pid);
            return process.TotalProcessorTime;
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return TimeSpan.Zero;
        }
    }

    /// <summary>
    /// "jit" when the process has CoreCLR loaded (libcoreclr.so mapped), else "native": for our router that means a
    /// native AOT build; for nats-server, Go.
    /// </summary>
    public string Runtime()
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{Pid}/maps"))
            {
                if (line.EndsWith("/libcoreclr.so", StringComparison.Ordinal))
                {
                    return "jit";
                }
            }

            return "native";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }

    /// <summary>
    /// The process's garbage collector, from its threads' names: "server" when it has server GC threads (".NET Server
    /// GC"), "workstation" for another .NET process (it has ".NET ..." threads), "none" for a process that is not .NET.
    /// </summary>
    public string GcMode()
    {
        try
        {
            var dotnet = false;
            foreach (var task in Directory.EnumerateDirectories($"/proc/{Pid}/task"))
            {
                var name = File.ReadAllText(Path.Combine(task, "comm")).Trim();
                if (name.StartsWith(".NET Server GC", StringComparison.Ordinal))
                {
                    return "server";
                }

                dotnet |= name.StartsWith(".NET ", StringComparison.Ordinal);
            }

            return dotnet ? "workstation" : "none";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }

    /// <summary>Resident memory now, in bytes.</summary>
    public long Rss() => StatusKilobytes("VmRSS:") * 1024;

    /// <summary>The peak resident memory over the process's life so far, in bytes.</summary>
    public long PeakRss() => StatusKilobytes("VmHWM:") * 1024;

    /// <summary>The process's threads now.</summary>
    public long Threads() => StatusKilobytes("Threads:");

    /// <summary>The process's open file descriptors now (sockets included).</summary>
    public long Handles()
    {
        try
        {
            return Directory.EnumerateFileSystemEntries($"/proc/{Pid}/fd").LongCount();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return 0;
        }
    }

    // A field of /proc/PID/status: the number before the unit (kB for memory, a count for Threads).
    private long StatusKilobytes(string field)
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{Pid}/status"))
            {
                if (line.StartsWith(field, StringComparison.Ordinal))
                {
                    var value = line.AsSpan(field.Length).Trim();
                    var space = value.IndexOf(' ');
                    return long.Parse(space < 0 ? value : value[..space], NumberStyles.Integer, CultureInfo.InvariantCulture);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException)
        {
        }

        return 0;
    }

    /// <summary>Resets the kernel's peak RSS (VmHWM) of the process to its current RSS; best effort.</summary>
    public void ResetPeak()
    {
        try
        {
            File.WriteAllText($"/proc/{Pid}/clear_refs", "5");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Without it the kernel's peak may predate the case; samples taken often still bound the rise.
        }
    }
}
