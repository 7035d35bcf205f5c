using System.Globalization;
using System.Text;
using System.Text.Json;

namespace JsonRpc.LoadTest.Report;

/// <summary>The results README's table: one row per run of every report in a folder, so its numbers are the JSON's.</summary>
public static class MarkdownTable
{
    /// <summary>Reads every <c>*.json</c> report in <paramref name="folder"/> (in name order) and returns the table.</summary>
    public static string FromFolder(string folder)
    {
        var table = new StringBuilder();
        var stalledRows = new StringBuilder();
        var neighbourRows = new StringBuilder();
        var machines = new SortedSet<string>(StringComparer.Ordinal);
        var started = new List<DateTimeOffset>();
        table.AppendLine("| file | workload | server | callers | provider | calls/s | payload Mbps | p50 us | p99 us | p99.9 us | max us | correct | server process: CPU in the window, per call / peak RSS | server syscalls per call | CPU: load generator / others |");
        table.AppendLine("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | --- |");
        foreach (var path in Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            var text = File.ReadAllText(path);
            if (!IsReport(text))
            {
                continue;
            }

            var report = JsonSerializer.Deserialize(text, LoadReportJsonContext.Default.LoadReport);
            if (report is null)
            {
                continue;
            }

            machines.Add($"{report.Machine.Cpu}, {report.Machine.Cores} cores, {report.Machine.Os}, {report.Machine.Dotnet}");
            started.Add(report.StartedAt);
            if (report.StalledClient is { } stalled)
            {
                stalledRows.AppendLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {Path.GetFileName(path)} | router{Settings(stalled.Router)} | {stalled.PayloadBytes} B to {stalled.Method} | {stalled.BaselineRssMb:N1} | {stalled.PeakRssMb:N1} | {stalled.RiseMb:N1} | {(stalled.Dropped ? $"yes, after {stalled.Seconds:N1} s" : "NO")} | {(stalled.OthersServed ? "yes" : "NO")} ({stalled.OtherCalls:N0} calls) |"));
            }

            if (report.Neighbour is { } neighbour)
            {
                foreach (var round in neighbour.Rounds)
                {
                    neighbourRows.AppendLine(NeighbourRow(Path.GetFileName(path), neighbour, round));
                }
            }

            foreach (var run in report.Runs)
            {
                table.AppendLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {Path.GetFileName(path)} | {Workload(run)} | {Server(run)} | {Kind(run.Caller)}{Inline(report.Machine)} | {Kind(run.Provider)}{Inline(report.Machine)} | {run.CallsPerSecond:N0} | {run.PayloadMbps:N1} | {run.Latency.P50Us:N0} | {run.Latency.P99Us:N0} | {run.Latency.P999Us:N0} | {run.Latency.MaxUs:N0} | {(run.Correctness.Passed ? "yes" : "NO")} ({run.Correctness.CallsSent:N0} calls) | {Process(run.ServerProcess, run.Calls)} | {Syscalls(run.ServerProcess)} | {run.Cpu.ProcessPercent:0}% / {run.Cpu.OthersPercent:0}% |"));
            }
        }

        if (stalledRows.Length > 0)
        {
            table.AppendLine();
            table.AppendLine("| file | router settings | stalled client's calls | RSS before MB | peak MB | rise MB | dropped | others served |");
            table.AppendLine("| --- | --- | --- | ---: | ---: | ---: | --- | --- |");
            table.Append(stalledRows);
        }

        if (neighbourRows.Length > 0)
        {
            table.AppendLine();
            table.AppendLine("| file | round | measured callers | alone calls/s | p50 / p99 us | router CPU us per call | flooded calls/s | p50 / p99 us | router CPU us per call / per answer | flooded / alone | flood | refusals/s | flood results/s | load generator CPU alone / flooded | correct |");
            table.AppendLine("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |");
            table.Append(neighbourRows);
        }

        if (started.Count > 0)
        {
            table.AppendLine();
            table.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"Machine: {string.Join("; ", machines)}. Runs from {started.Min():yyyy-MM-dd HH:mm} to {started.Max():HH:mm} UTC; each report has its load average."));
        }

        return table.ToString();
    }

    /// <summary>Whether a JSON file is this tool's report (a results folder may also hold the files a case ran with, such as a security file).</summary>
    private static bool IsReport(string json)
    {
        using var document = JsonDocument.Parse(json);
        return document.RootElement.ValueKind == JsonValueKind.Object
            && document.RootElement.TryGetProperty("tool", out var tool) && tool.ValueKind == JsonValueKind.String && tool.ValueEquals(LoadReport.ToolName);
    }

    private static string NeighbourRow(string file, NeighbourReport neighbour, NeighbourRoundReport round)
    {
        var (alone, flooded) = (round.Alone, round.Flooded);
        return string.Create(CultureInfo.InvariantCulture,
            $"| {file} | {round.Round} | {neighbour.Connections} x {neighbour.Window} in flight, {Size(neighbour.PayloadBytes)} | {alone.CallsPerSecond:N0} | {alone.Latency.P50Us:N0} / {alone.Latency.P99Us:N0} | {alone.Router?.CpuUsPerCall:N1} | {flooded.CallsPerSecond:N0} | {flooded.Latency.P50Us:N0} / {flooded.Latency.P99Us:N0} | {flooded.Router?.CpuUsPerCall:N1} / {flooded.RouterCpuUsPerAnswer:N1} | {round.Ratio:P1} | {neighbour.FloodConnections} x {neighbour.FloodWindow} in flight | {flooded.Flood?.RefusalsPerSecond:N0} | {flooded.Flood?.ResultsPerSecond:N0} | {alone.Cpu?.ProcessPercent:0}% / {flooded.Cpu?.ProcessPercent:0}% | {(neighbour.Problem is null ? "yes" : "NO")} |");
    }

    /// <summary>The server's name as the tables show it.</summary>
    public static string Server(RunReport run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return run.Implementation switch
        {
            "streamjsonrpc" => "StreamJsonRpc 2.26.150",
            "nats" => "nats-server",
            _ => run.Target == "process" ? $"router process{Settings(run.ServerProcess)}" : run.Target == "in-process" ? "router in-process" : $"router at {run.Target}",
        };
    }

    /// <summary>How a router process ran: " (native AOT)" for a native build, and the environment settings it was started with.</summary>
    private static string Settings(ServerProcessReport? process)
    {
        if (process is null)
        {
            return string.Empty;
        }

        var settings = process.Command.Split(' ').TakeWhile(word => word.Contains('=', StringComparison.Ordinal)).ToList();
        if (process.Gc is "server" or "workstation")
        {
            settings.Insert(0, $"{process.Gc} GC");
        }

        if (process.Runtime == "native")
        {
            settings.Insert(0, "native AOT");
        }

        return settings.Count == 0 ? string.Empty : $" ({string.Join(", ", settings)})";
    }

    private static string Process(ServerProcessReport? process, long calls)
        => process is null ? "-" : string.Create(CultureInfo.InvariantCulture,
            $"{process.CpuSeconds:N1} s ({process.CpuPercent:0}%), {process.CpuUsPerCall ?? (calls > 0 ? process.CpuSeconds * 1e6 / calls : 0):N1} us / {process.PeakRssMb:N0} MB");

    // Reports made before syscalls were counted have neither figure nor reason: "-" as for no process.
    private static string Syscalls(ServerProcessReport? process)
        => process?.SyscallsPerCall is { } perCall ? perCall.ToString("N2", CultureInfo.InvariantCulture)
            : process?.SyscallsUnavailable is not null ? "unavailable" : "-";

    private static string Workload(RunReport run)
        => string.Create(CultureInfo.InvariantCulture,
            $"{(run.Direct ? "direct" : "routed")}, {(run.Mode == "closed" ? "closed loop" : $"pipelined w={run.Window}")}, {run.Connections} x {Size(run.PayloadBytes)}");

    /// <summary>The callers' and providers' process ran its socket completions inline (--inline-io).</summary>
    private static string Inline(MachineReport machine) => machine.InlineSocketCompletions ? " (inline completions)" : string.Empty;

    private static string Kind(string kind) => kind switch { "client" => "JsonRpcClient", "none" => "(server)", "nats" => "NATS.Net", _ => kind };

    private static string Size(int bytes) => bytes >= 1024 && bytes % 1024 == 0 ? $"{bytes / 1024} KB" : $"{bytes} B";
}
