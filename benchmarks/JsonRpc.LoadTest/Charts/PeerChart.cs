using System.Globalization;
using System.Text.Json;
using JsonRpc.LoadTest.Report;
using ScottPlot;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// Ours against the peers, per workload: one bar panel per report in a folder that ran a peer beside ours on one
/// workload (sweeps are left out), a bar
/// per run with its calls/s written on it, and the ratio of our best to the peer's best in the panel's title.
/// </summary>
internal static class PeerChart
{
    public static void Save(string folder, string path)
    {
        var reports = Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal)
            .Select(file => JsonSerializer.Deserialize(File.ReadAllText(file), LoadReportJsonContext.Default.LoadReport))
            .OfType<LoadReport>()
            .Where(report => report.Runs.Select(run => run.Implementation).Distinct().Count() > 1
                && report.Runs.Select(run => run.Connections).Distinct().Count() == 1) // one workload, not a sweep
            .ToArray();
        if (reports.Length == 0)
        {
            throw new InvalidDataException($"{folder} holds no report with a peer run beside ours (--peer).");
        }

        var columns = Math.Min(3, reports.Length);
        var rows = (reports.Length + columns - 1) / columns;
        var plots = reports.Select(Panel).ToArray();
        foreach (var (plot, report) in plots.Zip(reports))
        {
            plot.Axes.Bottom.Label.Text = ChartStyle.Footer(report);
            plot.Axes.Bottom.Label.FontSize = 8;
            plot.Axes.Bottom.Label.Bold = false;
        }

        ChartStyle.Combine(plots, new ScottPlot.MultiplotLayouts.Grid(rows, columns)).SavePng(path, 660 * columns, 560 * rows);
    }

    private static Plot Panel(LoadReport report)
    {
        var plot = new Plot();
        ChartStyle.Apply(plot);
        var runs = report.Runs;
        var bars = new List<Bar>();
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        for (var i = 0; i < runs.Count; i++)
        {
            var run = runs[i];
            bars.Add(new Bar
            {
                Position = i,
                Value = run.CallsPerSecond,
                FillColor = ChartStyle.ColorOf(run.Implementation, run.Caller),
                Label = run.CallsPerSecond.ToString("N0", CultureInfo.InvariantCulture),
            });
            ticks.AddMajor(i, ChartStyle.SeriesName(run).Replace(" (", "\n(", StringComparison.Ordinal));
        }

        var barPlot = plot.Add.Bars(bars);
        barPlot.ValueLabelStyle.FontSize = 13;
        barPlot.ValueLabelStyle.Bold = true;
        plot.Axes.Bottom.TickGenerator = ticks;
        plot.Axes.Bottom.TickLabelStyle.FontSize = 11;
        plot.Axes.Margins(bottom: 0, top: 0.2);
        plot.YLabel("calls/s");
        var first = runs[0];
        plot.Title(string.Create(CultureInfo.InvariantCulture,
            $"{(first.Direct ? "direct" : "routed")}, {(first.Mode == "closed" ? "closed loop" : $"window {first.Window}")}, {first.Connections} x {Size(first.PayloadBytes)}{Ratios(runs)}"));
        plot.Axes.Title.Label.FontSize = 15;
        return plot;
    }

    /// <summary>
    /// Ours over the peer, like for like: with the same callers where the peer ran them (StreamJsonRpc), else
    /// JsonRpcClient callers against the peer's own (NATS.Net).
    /// </summary>
    private static string Ratios(List<RunReport> runs)
    {
        var parts = new List<string>();
        foreach (var ours in runs.Where(run => run.Implementation == "ours"))
        {
            var peer = runs.FirstOrDefault(run => run.Implementation != "ours" && run.Caller == ours.Caller)
                ?? (ours.Caller == "client" ? runs.FirstOrDefault(run => run.Implementation != "ours") : null);
            if (peer is { CallsPerSecond: > 0 })
            {
                parts.Add(string.Create(CultureInfo.InvariantCulture, $"{(ours.Caller == "client" ? "client" : ours.Caller)} {ours.CallsPerSecond / peer.CallsPerSecond:0.0}x"));
            }
        }

        return parts.Count == 0 ? string.Empty : $": ours {string.Join(", ", parts)}";
    }

    private static string Size(int bytes) => bytes >= 1024 && bytes % 1024 == 0 ? $"{bytes / 1024} KB" : $"{bytes} B";
}
