using System.Globalization;
using JsonRpc.LoadTest.Report;
using ScottPlot;

namespace JsonRpc.LoadTest.Charts;

/// <summary>What every chart shares: the font, the colours of each implementation, and the machine line under the plots.</summary>
internal static class ChartStyle
{
    /// <summary>A font every Debian machine with fonts has; ScottPlot falls back to its default where it is missing.</summary>
    public const string Font = "DejaVu Sans";

    /// <summary>Ours in blues, each peer in its own colour, so that a reader tells them apart across charts.</summary>
    public static Color ColorOf(string implementation, string caller) => implementation switch
    {
        "nats" => Colors.DarkOrange,
        "streamjsonrpc" => caller == "client" ? Colors.FireBrick : Colors.IndianRed,
        _ => caller == "client" ? Colors.Navy : Colors.SteelBlue,
    };

    /// <summary>A run's series name: whose server and which callers.</summary>
    public static string SeriesName(RunReport run) => run.Implementation switch
    {
        "nats" => "NATS (nats-server, NATS.Net callers)",
        "streamjsonrpc" => $"StreamJsonRpc ({Callers(run.Caller)})",
        _ => $"ours ({Callers(run.Caller)})",
    };

    public static void Apply(Plot plot)
    {
        plot.Font.Set(Font);
        plot.Axes.Title.Label.FontSize = 18;
    }

    /// <summary>The small print, in two lines: the machine (the report's machine line) and when.</summary>
    public static string Footer(LoadReport report)
    {
        var machine = report.Machine;
        return string.Create(CultureInfo.InvariantCulture,
            $"{machine.Cpu}, {machine.Cores} cores, {machine.Os}\n{machine.Dotnet}, load generator: {machine.Gc} GC, load average {machine.LoadAverage}; JsonRpc.LoadTest, {report.StartedAt:yyyy-MM-dd HH:mm} UTC");
    }

    /// <summary>Several plots side by side or in a grid, in one image.</summary>
    public static Multiplot Combine(IReadOnlyList<Plot> plots, IMultiplotLayout layout)
    {
        var multiplot = new Multiplot(plots[0]) { Layout = layout };
        for (var i = 1; i < plots.Count; i++)
        {
            multiplot.AddPlot(plots[i]);
        }

        return multiplot;
    }

    private static string Callers(string caller) => caller switch { "client" => "JsonRpcClient callers", "raw" => "raw socket callers", _ => caller };
}
