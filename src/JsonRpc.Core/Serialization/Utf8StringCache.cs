using System.Text;

namespace JsonRpc.Serialization;

/// <summary>
/// Turns short UTF-8 names (method names, error messages) into strings without allocating for names seen before.
/// A fixed number of slots, each replaced on a miss, so the memory it holds is bounded whatever peers send.
/// </summary>
internal sealed class Utf8StringCache
{
    private const int MaxLength = 64;
    private readonly Entry?[] _slots;

    public Utf8StringCache(int slots = 1024) => _slots = new Entry?[slots];

    public static Utf8StringCache Methods { get; } = new();

    public string GetOrAdd(ReadOnlySpan<byte> utf8)
    {
        if (utf8.Length > MaxLength)
        {
            return Encoding.UTF8.GetString(utf8);
        }

        ref var slot = ref _slots[Utf8Hash.Of(utf8) % (uint)_slots.Length];
        var entry = Volatile.Read(ref slot);
        if (entry is not null && entry.Utf8.AsSpan().SequenceEqual(utf8))
        {
            return entry.Value;
        }

        var value = Encoding.UTF8.GetString(utf8);
        Volatile.Write(ref slot, new Entry(utf8.ToArray(), value));
        return value;
    }

    private sealed class Entry(byte[] utf8, string value)
    {
        public byte[] Utf8 { get; } = utf8;

        public string Value { get; } = value;
    }
}
