using System.Buffers.Binary;
using System.IO.Compression;

namespace JsonRpc.LoadTest.Charts;

/// <summary>
/// Writes a <see cref="Canvas"/> as a PNG: 8-bit RGB, one IDAT chunk compressed with <see cref="ZLibStream"/>
/// (which adds the zlib header and Adler-32 the format asks for), every row with filter type 1 ("Sub"), which suits
/// the flat colours of a chart.
/// </summary>
internal static class PngEncoder
{
    private static ReadOnlySpan<byte> Signature => [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A];

    public static byte[] Encode(Canvas canvas)
    {
        ArgumentNullException.ThrowIfNull(canvas);
        using var png = new MemoryStream();
        png.Write(Signature);

        Span<byte> header = stackalloc byte[13];
        BinaryPrimitives.WriteInt32BigEndian(header, canvas.Width);
        BinaryPrimitives.WriteInt32BigEndian(header[4..], canvas.Height);
        header[8] = 8;  // bits per sample
        header[9] = 2;  // colour type: RGB
        header[10] = 0; // deflate
        header[11] = 0; // adaptive filtering
        header[12] = 0; // no interlace
        WriteChunk(png, "IHDR"u8, header);
        WriteChunk(png, "IDAT"u8, Compress(canvas));
        WriteChunk(png, "IEND"u8, []);
        return png.ToArray();
    }

    private static byte[] Compress(Canvas canvas)
    {
        var stride = canvas.Width * 3;
        var pixels = canvas.Pixels;
        var row = new byte[stride + 1];
        using var compressed = new MemoryStream();
        using (var zlib = new ZLibStream(compressed, CompressionLevel.SmallestSize, leaveOpen: true))
        {
            for (var y = 0; y < canvas.Height; y++)
            {
                // Sub: each byte minus the same channel of the pixel to its left.
                row[0] = 1;
                var source = pixels.AsSpan(y * stride, stride);
                for (var i = 0; i < stride; i++)
                {
                    row[i + 1] = (byte)(source[i] - (i >= 3 ? source[i - 3] : 0));
                }

                zlib.Write(row);
            }
        }

        return compressed.ToArray();
    }

    private static void WriteChunk(Stream png, ReadOnlySpan<byte> type, ReadOnlySpan<byte> data)
    {
        Span<byte> word = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(word, data.Length);
        png.Write(word);
        png.Write(type);
        png.Write(data);
        BinaryPrimitives.WriteUInt32BigEndian(word, Crc32.Append(Crc32.Append(0, type), data));
        png.Write(word);
    }
}
