using System.Diagnostics;
using System.Globalization;
using System.Runtime;
using System.Runtime.InteropServices;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest.Engine;

/// <summary>The machine's description and CPU use, from /proc where there is one (each read is best effort).</summary>
internal static class SystemMetrics
{
    public static MachineReport DescribeMachine() => new()
    {
        Cpu = CpuModel(),
        Cores = Environment.ProcessorCount,
        Os = ReadFirstLine("/proc/sys/kernel/osrelease") is { } kernel ? $"{OsName()}, kernel {kernel}" : OsName(),
        Dotnet = RuntimeInformation.FrameworkDescription,
        Gc = GCSettings.IsServerGC ? "server" : "workstation",
        InlineSocketCompletions = InlineSocketCompletions.Enabled,
        LoadAverage = ReadFirstLine("/proc/loadavg") is { } load ? string.Join(' ', load.Split(' ').Take(3)) : "unknown",
    };

    /// <summary>A CPU reading to difference against a later one.</summary>
    public static CpuSample SampleCpu()
    {
        using var process = Process.GetCurrentProcess();
        var (busy, total) = MachineJiffies();
        return new CpuSample(Stopwatch.GetTimestamp(), process.TotalProcessorTime, busy, total);
    }

    public static CpuReport Compare(CpuSample start, CpuSample end)
    {
        var wall = Stopwatch.GetElapsedTime(start.Timestamp, end.Timestamp).TotalSeconds;
        var process = wall > 0 ? (end.ProcessTime - start.ProcessTime).TotalSeconds / (wall * Environment.ProcessorCount) * 100 : 0;
        var totalJiffies = end.MachineTotal - start.MachineTotal;
        var machine = totalJiffies > 0 ? (double)(end.MachineBusy - start.MachineBusy) / totalJiffies * 100 : 0;
        return new CpuReport
        {
            ProcessPercent = Math.Round(process, 1),
            MachinePercent = Math.Round(machine, 1),
            OthersPercent = Math.Round(Math.Max(0, machine - process), 1),
            LoadAverage = LoadAverage1(),
        };
    }

    private static double LoadAverage1()
    {
        var line = ReadFirstLine("/proc/loadavg");
        var first = line?.Split(' ')[0];
        return double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out var load) ? load : 0;
    }

    // The first "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal ...
    private static (long Busy, long Total) MachineJiffies()
    {
        var line = ReadFirstLine("/proc/stat");
        if (line is null || !line.StartsWith("cpu ", StringComparison.Ordinal))
        {
            return (0, 0);
        }

        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        long total = 0, idle = 0;
        for (var i = 1; i < fields.Length && i <= 8; i++)
        {
            var value = long.Parse(fields[i], CultureInfo.InvariantCulture);
            total += value;
            if (i is 4 or 5)
            {
                idle += value;
            }
        }

        return (total - idle, total);
    }

    private static string CpuModel()
    {
        try
        {
            foreach (var line in File.ReadLines("/proc/cpuinfo"))
            {
                if (line.StartsWith("model name", StringComparison.Ordinal))
                {
                    return line[(line.IndexOf(':') + 1)..].Trim();
                }
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }

        return RuntimeInformation.ProcessArchitecture.ToString();
    }

    private static string OsName()
    {
        try
        {
            foreach (var line in File.ReadLines("/etc/os-release"))
            {
                if (line.StartsWith("PRETTY_NAME=", StringComparison.Ordinal))
                {
                    return line["PRETTY_NAME=".Length..].Trim('"');
                }
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }

        return RuntimeInformation.OSDescription;
    }

    private static string? ReadFirstLine(string path)
    {
        try
        {
            using var reader = new StreamReader(path);
            return reader.ReadLine();
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
