using System.Globalization;
using JsonRpc.LoadTest.Report;
using ScottPlot;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// The connection sweep's chart: calls/s and p99 latency against caller connections (log scale), one line per
/// server and caller implementation (ours with each caller, and the peer where one ran), the machine line beneath.
/// </summary>
internal static class SweepChart
{
    public static void Save(LoadReport report, string path, int width = 1500, int height = 640)
    {
        var first = report.Runs.FirstOrDefault();
        var workload = first is null ? string.Empty
            : string.Create(CultureInfo.InvariantCulture, $"{(first.Direct ? "direct" : "routed")}, closed loop, {first.PayloadBytes} B echo");
        Plot[] plots =
        [
            Panel(report, $"Calls per second ({workload})", "calls/s", run => run.CallsPerSecond),
            Panel(report, "p99 round-trip latency", "p99 latency (ms)", run => run.Latency.P99Us / 1000),
        ];
        plots[0].Axes.Bottom.Label.Text = $"caller connections (log scale)\n{ChartStyle.Footer(report)}";
        plots[0].Axes.Bottom.Label.FontSize = 11;
        ChartStyle.Combine(plots, new ScottPlot.MultiplotLayouts.Columns()).SavePng(path, width, height);
    }

    private static Plot Panel(LoadReport report, string title, string yLabel, Func<RunReport, double> value)
    {
        var plot = new Plot();
        ChartStyle.Apply(plot);
        plot.Title(title);
        plot.YLabel(yLabel);
        plot.XLabel("caller connections (log scale)");
        var counts = report.Runs.Select(run => run.Connections).Distinct().Order().ToArray();
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        foreach (var count in counts)
        {
            ticks.AddMajor(Math.Log10(count), count.ToString(CultureInfo.InvariantCulture));
        }

        plot.Axes.Bottom.TickGenerator = ticks;
        foreach (var group in report.Runs.GroupBy(run => (run.Implementation, run.Caller)))
        {
            var runs = group.OrderBy(run => run.Connections).ToArray();
            var line = plot.Add.Scatter(
                runs.Select(run => Math.Log10(run.Connections)).ToArray(),
                runs.Select(value).ToArray(),
                ChartStyle.ColorOf(group.Key.Implementation, group.Key.Caller));
            line.LegendText = ChartStyle.SeriesName(runs[0]);
            line.LineWidth = 2.5f;
            line.MarkerSize = 9;
        }

        var top = report.Runs.Count == 0 ? 1 : Math.Max(1e-3, report.Runs.Max(value));
        plot.Axes.SetLimitsY(0, top * 1.2);
        plot.Axes.SetLimitsX(Math.Log10(counts.FirstOrDefault(1)) - 0.15, Math.Log10(counts.LastOrDefault(1)) + 0.15);
        plot.ShowLegend(Alignment.UpperLeft);
        return plot;
    }
}
