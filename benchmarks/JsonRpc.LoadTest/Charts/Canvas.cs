namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// An RGB raster with the few primitives a chart needs. Lines and dots are anti-aliased by coverage: each pixel near
/// the shape is blended by how far its centre lies inside the shape's edge (one pixel of soft edge). Text is the
/// <see cref="BitmapFont"/> scaled by whole pixels, horizontal or turned a quarter left.
/// </summary>
internal sealed class Canvas
{
    public Canvas(int width, int height, Rgb background)
    {
        Width = width;
        Height = height;
        Pixels = new byte[width * height * 3];
        FillRect(0, 0, width, height, background);
    }

    public int Width { get; }

    public int Height { get; }

    /// <summary>Rows top to bottom, three bytes (R, G, B) per pixel.</summary>
    public byte[] Pixels { get; }

    public void FillRect(int x, int y, int width, int height, Rgb color)
    {
        for (var py = Math.Max(0, y); py < Math.Min(Height, y + height); py++)
        {
            for (var px = Math.Max(0, x); px < Math.Min(Width, x + width); px++)
            {
                Blend(px, py, color, 1);
            }
        }
    }

    /// <summary>A line of <paramref name="thickness"/> pixels with round ends.</summary>
    public void DrawLine(double x0, double y0, double x1, double y1, Rgb color, double thickness)
    {
        var half = thickness / 2;
        var minX = (int)Math.Floor(Math.Min(x0, x1) - half - 1);
        var maxX = (int)Math.Ceiling(Math.Max(x0, x1) + half + 1);
        var minY = (int)Math.Floor(Math.Min(y0, y1) - half - 1);
        var maxY = (int)Math.Ceiling(Math.Max(y0, y1) + half + 1);
        var dx = x1 - x0;
        var dy = y1 - y0;
        var lengthSquared = (dx * dx) + (dy * dy);
        for (var py = minY; py <= maxY; py++)
        {
            for (var px = minX; px <= maxX; px++)
            {
                // Distance from the pixel's centre to the nearest point of the segment.
                double cx = px + 0.5, cy = py + 0.5;
                var t = lengthSquared == 0 ? 0 : Math.Clamp((((cx - x0) * dx) + ((cy - y0) * dy)) / lengthSquared, 0, 1);
                var distance = Math.Sqrt(Square(cx - (x0 + (t * dx))) + Square(cy - (y0 + (t * dy))));
                Blend(px, py, color, Math.Clamp(half + 0.5 - distance, 0, 1));
            }
        }
    }

    public void FillCircle(double cx, double cy, double radius, Rgb color)
    {
        for (var py = (int)Math.Floor(cy - radius - 1); py <= (int)Math.Ceiling(cy + radius + 1); py++)
        {
            for (var px = (int)Math.Floor(cx - radius - 1); px <= (int)Math.Ceiling(cx + radius + 1); px++)
            {
                var distance = Math.Sqrt(Square(px + 0.5 - cx) + Square(py + 0.5 - cy));
                Blend(px, py, color, Math.Clamp(radius + 0.5 - distance, 0, 1));
            }
        }
    }

    /// <summary>Text with its top-left corner at (<paramref name="x"/>, <paramref name="y"/>); returns its width.</summary>
    public int DrawText(int x, int y, string text, Rgb color, int scale)
    {
        ArgumentNullException.ThrowIfNull(text);
        var pen = x;
        foreach (var ch in text)
        {
            var rows = BitmapFont.Glyph(ch);
            for (var gy = 0; gy < rows.Length; gy++)
            {
                for (var gx = 0; gx < BitmapFont.Width; gx++)
                {
                    if ((rows[gy] & (1 << (BitmapFont.Width - 1 - gx))) != 0)
                    {
                        FillRect(pen + (gx * scale), y + (gy * scale), scale, scale, color);
                    }
                }
            }

            pen += BitmapFont.Advance * scale;
        }

        return pen - x;
    }

    /// <summary>Text turned a quarter left, reading bottom to top, its baseline side at <paramref name="x"/> and starting at <paramref name="y"/>.</summary>
    public void DrawTextUp(int x, int y, string text, Rgb color, int scale)
    {
        ArgumentNullException.ThrowIfNull(text);
        var pen = y;
        foreach (var ch in text)
        {
            var rows = BitmapFont.Glyph(ch);
            for (var gy = 0; gy < rows.Length; gy++)
            {
                for (var gx = 0; gx < BitmapFont.Width; gx++)
                {
                    if ((rows[gy] & (1 << (BitmapFont.Width - 1 - gx))) != 0)
                    {
                        FillRect(x + (gy * scale), pen - ((gx + 1) * scale), scale, scale, color);
                    }
                }
            }

            pen -= BitmapFont.Advance * scale;
        }
    }

    public static int MeasureText(string text, int scale) => text.Length * BitmapFont.Advance * scale;

    private void Blend(int x, int y, Rgb color, double alpha)
    {
        if (alpha <= 0 || x < 0 || y < 0 || x >= Width || y >= Height)
        {
            return;
        }

        var i = ((y * Width) + x) * 3;
        Pixels[i] = Mix(Pixels[i], color.R, alpha);
        Pixels[i + 1] = Mix(Pixels[i + 1], color.G, alpha);
        Pixels[i + 2] = Mix(Pixels[i + 2], color.B, alpha);
    }

    private static byte Mix(byte under, byte over, double alpha) => (byte)Math.Round(under + ((over - under) * alpha));

    private static double Square(double value) => value * value;
}
