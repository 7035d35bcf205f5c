namespace JsonRpc.LoadTest.Charts;

/// <summary>One line of a chart: its name for the legend, its colour, and its points in data units.</summary>
internal sealed record ChartSeries(string Name, Rgb Color, IReadOnlyList<(double X, double Y)> Points);
