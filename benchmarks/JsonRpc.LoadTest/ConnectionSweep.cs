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

    /// <summary>Writes a PNG with two panels, calls/s and p99 latency against connections, one line per server and caller.</summary>
    public static void Plot(LoadReport report, string path)
    {
        ArgumentNullException.ThrowIfNull(report);
        Charts.SweepChart.Save(report, path);
    }
}
