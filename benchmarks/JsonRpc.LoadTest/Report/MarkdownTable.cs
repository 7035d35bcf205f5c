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
        table.AppendLine("| file | workload | caller | provider | calls/s | payload Mbps | p50 us | p99 us | p99.9 us | max us | correct | CPU: this process / others |");
        table.AppendLine("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
        foreach (var path in Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            var report = JsonSerializer.Deserialize(File.ReadAllText(path), LoadReportJsonContext.Default.LoadReport);
            if (report is null)
            {
                continue;
            }

            foreach (var run in report.Runs)
            {
                table.AppendLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {Path.GetFileName(path)} | {Workload(run)} | {Kind(run.Caller)} | {Kind(run.Provider)} | {run.CallsPerSecond:N0} | {run.PayloadMbps:N1} | {run.Latency.P50Us:N0} | {run.Latency.P99Us:N0} | {run.Latency.P999Us:N0} | {run.Latency.MaxUs:N0} | {(run.Correctness.Passed ? "yes" : "NO")} ({run.Correctness.CallsSent:N0} calls) | {run.Cpu.ProcessPercent:0}% / {run.Cpu.OthersPercent:0}% |"));
            }
        }

        return table.ToString();
    }

    private static string Workload(RunReport run)
        => string.Create(CultureInfo.InvariantCulture,
            $"{(run.Direct ? "direct" : "routed")}, {(run.Mode == "closed" ? "closed loop" : $"pipelined w={run.Window}")}, {run.Connections} x {Size(run.PayloadBytes)}");

    private static string Kind(string kind) => kind switch { "client" => "JsonRpcClient", "none" => "(router)", _ => kind };

    private static string Size(int bytes) => bytes >= 1024 && bytes % 1024 == 0 ? $"{bytes / 1024} KB" : $"{bytes} B";
}
