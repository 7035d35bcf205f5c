using JsonRpc.LoadTest.Report;
using ScottPlot;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// The soak over time, one panel each: node A's RSS, its threads and open handles, the callers' answers per second, and
/// their p50 and p99 latency; a dashed line at every fault injected.
/// </summary>
internal static class SoakChart
{
    public static void Save(SoakReport report, string path, int width = 1600, int height = 1500)
    {
        var minutes = report.Samples.Select(s => s.AtSeconds / 60).ToArray();
        Plot[] plots =
        [
            Panel(report, minutes, "Node A resident memory", "RSS (MB)", [("RSS", Colors.SteelBlue, s => s.RssMb)]),
            Panel(report, minutes, "Node A threads and open handles", "count",
                [("threads", Colors.SeaGreen, s => s.Threads), ("handles (fds)", Colors.DarkOrange, s => s.Handles)]),
            Panel(report, minutes, "Answers per second (raw and JsonRpcClient callers)", "answers/s", [("answers/s", Colors.Navy, s => s.CallsPerSecond)]),
            Panel(report, minutes, "Round-trip latency of answered calls", "latency (ms)",
                [("p50", Colors.SteelBlue, s => s.P50Ms), ("p99", Colors.FireBrick, s => s.P99Ms)]),
        ];
        var last = plots[^1];
        last.Axes.Bottom.Label.Text = $"minutes (dashed: faults)\n{Footer(report)}";
        last.Axes.Bottom.Label.FontSize = 11;
        ChartStyle.Combine(plots, new ScottPlot.MultiplotLayouts.Rows()).SavePng(path, width, height);
    }

    private static Plot Panel(SoakReport report, double[] minutes, string title, string yLabel, (string Name, Color Color, Func<SoakSample, double> Value)[] series)
    {
        var plot = new Plot();
        ChartStyle.Apply(plot);
        plot.Title(title);
        plot.YLabel(yLabel);
        plot.XLabel("minutes");
        foreach (var fault in report.Faults)
        {
            var line = plot.Add.VerticalLine(fault.AtSeconds / 60, 1, Colors.Gray.WithAlpha(0.5));
            line.LinePattern = LinePattern.Dashed;
        }

        foreach (var (name, color, value) in series)
        {
            var scatter = plot.Add.Scatter(minutes, report.Samples.Select(value).ToArray(), color);
            scatter.LegendText = name;
            scatter.MarkerSize = 0;
            scatter.LineWidth = 1.5f;
        }

        plot.ShowLegend(Alignment.UpperLeft);
        return plot;
    }

    private static string Footer(SoakReport report)
    {
        var machine = report.Machine;
        return $"{machine.Cpu}, {machine.Cores} cores, {machine.Os}; {machine.Dotnet}; JsonRpc.LoadTest --soak {report.Seconds:0}, {report.StartedAt:yyyy-MM-dd HH:mm} UTC";
    }
}
