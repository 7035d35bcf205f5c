using System.Globalization;
using System.Text.Json;
using JsonRpc.LoadTest.Report;
using ScottPlot;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// Ours against the peers, per workload: one bar panel per report in a folder that ran a peer beside ours, a bar
/// per run with its calls/s written on it, and the ratio of our best to the peer's best in the panel's title.
/// </summary>
internal static class PeerChart
{
    public static void Save(string folder, string path)
    {
        var reports = Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal)
            .Select(file => JsonSerializer.Deserialize(File.ReadAllText(file), LoadReportJsonContext.Default.LoadReport))
            .OfType<LoadReport>()
            .Where(report => report.Runs.Select(run => run.Implementation).Distinct().Count() > 1)
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
        var ours = runs.Where(run => run.Implementation == "ours").Select(run => run.CallsPerSecond).DefaultIfEmpty(0).Max();
        var peer = runs.Where(run => run.Implementation != "ours").Select(run => run.CallsPerSecond).DefaultIfEmpty(0).Max();
        var ratio = peer > 0 ? string.Create(CultureInfo.InvariantCulture, $": ours {ours / peer:0.0}x") : string.Empty;
        plot.Title(string.Create(CultureInfo.InvariantCulture,
            $"{(first.Direct ? "direct" : "routed")}, {(first.Mode == "closed" ? "closed loop" : $"window {first.Window}")}, {first.Connections} x {Size(first.PayloadBytes)}{ratio}"));
        plot.Axes.Title.Label.FontSize = 15;
        return plot;
    }

    private static string Size(int bytes) => bytes >= 1024 && bytes % 1024 == 0 ? $"{bytes / 1024} KB" : $"{bytes} B";
}
