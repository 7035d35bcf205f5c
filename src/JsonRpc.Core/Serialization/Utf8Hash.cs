using System.Buffers.Binary;

namespace JsonRpc.Serialization;

/// <summary>
/// A cheap hash of short UTF-8 names (method names, error messages) for the lookup tables on the hot path: the length
/// and the first and last eight bytes, mixed with a per-process seed. Not for tables a peer can fill: the tables that
/// use it hold only registered names, or are caches whose collisions cost a miss, never a slow lookup.
/// </summary>
internal static class Utf8Hash
{
    private static readonly ulong Seed = (ulong)Random.Shared.NextInt64() | 1;

    public static uint Of(ReadOnlySpan<byte> utf8)
    {
        ulong head, tail;
        if (utf8.Length >= 8)
        {
            head = BinaryPrimitives.ReadUInt64LittleEndian(utf8);
            tail = BinaryPrimitives.ReadUInt64LittleEndian(utf8[^8..]);
        }
        else
        {
            head = 0;
            foreach (var b in utf8)
            {
                head = (head << 8) | b;
            }

            tail = 0;
        }

        var mixed = ((head ^ Seed) * 0x9E3779B97F4A7C15UL) ^ (tail * 0xC2B2AE3D27D4EB4FUL) ^ (ulong)utf8.Length;
        return (uint)(mixed ^ (mixed >> 29));
    }
}
