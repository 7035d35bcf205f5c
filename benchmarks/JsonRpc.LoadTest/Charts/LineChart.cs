using System.Globalization;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// A line chart panel: a title, a logarithmic x axis with a tick at every x in the data, a linear y axis from 0 to a
/// round number above the largest value, grid lines, each series as a line through dots labelled with their values,
/// and a legend.
/// </summary>
internal sealed class LineChart
{
    private const int TextScale = 2;
    private const int CharHeight = BitmapFont.Height * TextScale;

    public required string Title { get; init; }

    public required string XLabel { get; init; }

    public required string YLabel { get; init; }

    public required IReadOnlyList<ChartSeries> Series { get; init; }

    /// <summary>How a y value is written on the axis and next to the dots.</summary>
    public Func<double, string> FormatY { get; init; } = y => y.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>Draws the panel into the rectangle (<paramref name="left"/>, <paramref name="top"/>, <paramref name="width"/>, <paramref name="height"/>).</summary>
    public void Draw(Canvas canvas, int left, int top, int width, int height)
    {
        var xs = Series.SelectMany(s => s.Points).Select(p => p.X).Where(x => x > 0).Distinct().Order().ToArray();
        var maxY = Series.SelectMany(s => s.Points).Select(p => p.Y).DefaultIfEmpty(0).Max();
        var (yMax, yStep) = NiceScale(maxY);

        // Room for the title above, the y tick labels and axis label on the left, the x labels below.
        var plotLeft = left + 30 + (Canvas.MeasureText(FormatY(yMax), TextScale) + 12);
        var plotTop = top + CharHeight + 36;
        var plotRight = left + width - 24;
        var plotBottom = top + height - ((CharHeight * 2) + 28);
        canvas.DrawText(left + ((width - Canvas.MeasureText(Title, TextScale)) / 2), top + 14, Title, Rgb.Text, TextScale);

        // The x axis is logarithmic, padded by a fifth of a decade each side (half a decade for a single x).
        var lowDecade = xs.Length == 0 ? 0 : Math.Log10(xs[0]);
        var highDecade = xs.Length == 0 ? 1 : Math.Log10(xs[^1]);
        var pad = highDecade - lowDecade < 1e-9 ? 0.5 : (highDecade - lowDecade) * 0.12;
        lowDecade -= pad;
        highDecade += pad;
        double X(double x) => plotLeft + ((Math.Log10(x) - lowDecade) / (highDecade - lowDecade) * (plotRight - plotLeft));
        double Y(double y) => plotBottom - (y / yMax * (plotBottom - plotTop));

        for (var y = 0.0; y <= yMax + (yStep / 2); y += yStep)
        {
            var py = (int)Math.Round(Y(y));
            canvas.FillRect(plotLeft, py, plotRight - plotLeft, 1, y == 0 ? Rgb.Axis : Rgb.Grid);
            var label = FormatY(y);
            canvas.DrawText(plotLeft - 10 - Canvas.MeasureText(label, TextScale), py - (CharHeight / 2) + 2, label, Rgb.Text, TextScale);
        }

        foreach (var x in xs)
        {
            var px = (int)Math.Round(X(x));
            canvas.FillRect(px, plotTop, 1, plotBottom - plotTop, Rgb.Grid);
            canvas.FillRect(px, plotBottom, 1, 6, Rgb.Axis);
            var label = x.ToString("N0", CultureInfo.InvariantCulture);
            canvas.DrawText(px - (Canvas.MeasureText(label, TextScale) / 2), plotBottom + 10, label, Rgb.Text, TextScale);
        }

        canvas.FillRect(plotLeft, plotTop, 1, plotBottom - plotTop + 1, Rgb.Axis);
        canvas.DrawText(plotLeft + ((plotRight - plotLeft - Canvas.MeasureText(XLabel, TextScale)) / 2), plotBottom + CharHeight + 18, XLabel, Rgb.Text, TextScale);
        canvas.DrawTextUp(left + 4, plotTop + ((plotBottom - plotTop + Canvas.MeasureText(YLabel, TextScale)) / 2), YLabel, Rgb.Text, TextScale);

        foreach (var series in Series)
        {
            var points = series.Points.Where(p => p.X > 0).OrderBy(p => p.X).ToArray();
            for (var i = 1; i < points.Length; i++)
            {
                canvas.DrawLine(X(points[i - 1].X), Y(points[i - 1].Y), X(points[i].X), Y(points[i].Y), series.Color, 3);
            }

            foreach (var (x, y) in points)
            {
                canvas.FillCircle(X(x), Y(y), 5.5, series.Color);
            }
        }

        // Values last, on a white patch so that no line crosses them, each where it overlaps no value placed before.
        var placed = new List<(int X, int Y, int Width, int Height)>();
        foreach (var series in Series)
        {
            foreach (var (x, y) in series.Points.Where(p => p.X > 0))
            {
                var label = FormatY(y);
                var labelWidth = Canvas.MeasureText(label, TextScale);
                var (px, py) = ((int)X(x), (int)Y(y));
                (int X, int Y, int Width, int Height)[] candidates =
                [
                    (px + 10, py - CharHeight - 8, labelWidth, CharHeight),
                    (px + 10, py + 8, labelWidth, CharHeight),
                    (px - 10 - labelWidth, py - CharHeight - 8, labelWidth, CharHeight),
                    (px - 10 - labelWidth, py + 8, labelWidth, CharHeight),
                ];
                var spot = candidates[0];
                foreach (var candidate in candidates)
                {
                    var inside = candidate.X >= plotLeft && candidate.X + candidate.Width <= plotRight + 20 && candidate.Y >= plotTop;
                    if (inside && !placed.Exists(other => Overlaps(candidate, other)))
                    {
                        spot = candidate;
                        break;
                    }
                }

                placed.Add(spot);
                canvas.FillRect(spot.X - 3, spot.Y - 3, labelWidth + 4, CharHeight + 4, Rgb.White);
                canvas.DrawText(spot.X, spot.Y, label, series.Color, TextScale);
            }
        }

        DrawLegend(canvas, plotLeft + 14, plotTop + 10);
    }

    private void DrawLegend(Canvas canvas, int x, int y)
    {
        foreach (var series in Series)
        {
            canvas.DrawLine(x, y + (CharHeight / 2.0), x + 26, y + (CharHeight / 2.0), series.Color, 3);
            canvas.FillCircle(x + 13, y + (CharHeight / 2.0), 4.5, series.Color);
            canvas.DrawText(x + 34, y + 1, series.Name, Rgb.Text, TextScale);
            y += CharHeight + 8;
        }
    }

    private static bool Overlaps((int X, int Y, int Width, int Height) a, (int X, int Y, int Width, int Height) b)
        => a.X < b.X + b.Width + 4 && b.X < a.X + a.Width + 4 && a.Y < b.Y + b.Height + 4 && b.Y < a.Y + a.Height + 4;

    /// <summary>A round top for the axis (1, 2, 2.5 or 5 times a power of ten per step, five steps or so).</summary>
    internal static (double Max, double Step) NiceScale(double max)
    {
        if (max <= 0)
        {
            return (1, 0.2);
        }

        var raw = max * 1.18 / 5;
        var power = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        var step = power * (raw / power <= 1 ? 1 : raw / power <= 2 ? 2 : raw / power <= 2.5 ? 2.5 : raw / power <= 5 ? 5 : 10);
        return (Math.Ceiling(max * 1.18 / step) * step, step);
    }
}
