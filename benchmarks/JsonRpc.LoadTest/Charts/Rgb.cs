namespace JsonRpc.LoadTest.Charts;

/// <summary>An opaque colour.</summary>
internal readonly record struct Rgb(byte R, byte G, byte B)
{
    public static Rgb White => new(255, 255, 255);

    public static Rgb Black => new(0, 0, 0);

    public static Rgb Text => new(40, 40, 48);

    public static Rgb Axis => new(90, 90, 100);

    public static Rgb Grid => new(226, 228, 234);

    public static Rgb Blue => new(31, 119, 180);

    public static Rgb Orange => new(230, 126, 34);

    public static Rgb Green => new(44, 160, 44);
}
