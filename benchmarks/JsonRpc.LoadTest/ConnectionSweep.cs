using System.Globalization;
using JsonRpc.LoadTest.Charts;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest;

/// <summary>The connection sweep behind <c>--plot</c>: a closed loop at each connection count, then a chart.</summary>
public static class ConnectionSweep
{
    /// <summary>Runs the workload in closed loop once per count in <see cref="LoadOptions.Sweep"/>; one report with every run.</summary>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, bool overwrite, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        LoadReport? all = null;
        foreach (var connections in options.Sweep)
        {
            var point = options.Clone();
            point.Mode = LoadMode.Closed;
            point.Connections = connections;
            var report = await LoadRunner.RunAsync(point, progress, overwrite, cancellationToken).ConfigureAwait(false);
            all ??= report with { Runs = [] };
            all.Runs.AddRange(report.Runs);
        }

        return all!;
    }

    /// <summary>Writes a PNG with two panels, calls/s and p99 latency against connections, one line per caller.</summary>
    public static void Plot(LoadReport report, string path)
    {
        ArgumentNullException.ThrowIfNull(report);
        File.WriteAllBytes(path, PngEncoder.Encode(Render(report)));
    }

    internal static Canvas Render(LoadReport report)
    {
        const int Width = 1400, PanelHeight = 560, Footer = 64;
        var canvas = new Canvas(Width, PanelHeight + Footer, Rgb.White);
        var callers = report.Runs.Select(r => r.Caller).Distinct().ToArray();
        var colors = new[] { Rgb.Blue, Rgb.Orange, Rgb.Green };
        List<ChartSeries> Series(Func<RunReport, double> value) =>
            [.. callers.Select((caller, i) => new ChartSeries(
                caller == "raw" ? "raw socket callers" : "JsonRpcClient callers",
                colors[i % colors.Length],
                [.. report.Runs.Where(r => r.Caller == caller).Select(r => ((double)r.Connections, value(r)))]))];

        var first = report.Runs.FirstOrDefault();
        var workload = first is null ? string.Empty
            : string.Create(CultureInfo.InvariantCulture, $"{(first.Direct ? "direct" : "routed")}, closed loop, {first.PayloadBytes} B echo");
        var xLabel = "caller connections (log scale)";
        new LineChart
        {
            Title = $"Calls per second ({workload})",
            XLabel = xLabel,
            YLabel = "calls/s",
            Series = Series(r => r.CallsPerSecond),
        }.Draw(canvas, 0, 0, Width / 2, PanelHeight);
        new LineChart
        {
            Title = "p99 round-trip latency",
            XLabel = xLabel,
            YLabel = "p99 latency (ms)",
            Series = Series(r => r.Latency.P99Us / 1000),
            FormatY = y => y.ToString(y < 10 ? "0.##" : "N0", CultureInfo.InvariantCulture),
        }.Draw(canvas, Width / 2, 0, Width / 2, PanelHeight);

        var others = report.Runs.Count == 0 ? 0 : report.Runs.Average(r => r.Cpu.OthersPercent);
        canvas.FillRect(0, PanelHeight, Width, 1, Rgb.Grid);
        canvas.DrawText(16, PanelHeight + 12, ReportPrinter.MachineLine(report.Machine), Rgb.Axis, 1);
        canvas.DrawText(16, PanelHeight + 30, string.Create(CultureInfo.InvariantCulture,
            $"JsonRpc.LoadTest, {report.StartedAt:yyyy-MM-dd HH:mm} UTC; other processes used {others:0}% of the machine on average during the measured windows."), Rgb.Axis, 1);
        return canvas;
    }
}
