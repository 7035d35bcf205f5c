using System.Buffers.Binary;
using System.Text;

namespace JsonRpc.Dispatch;

/// <summary>
/// The registered methods, found by their UTF-8 names straight from the message bytes: no transcoding and no string.
/// Immutable: adding or removing a method builds a new table, so lookups never lock.
/// </summary>
/// <remarks>
/// Open addressing over a table at most half full. Only registered names are in it, so a peer's lookups, whatever the
/// names they send, probe at most the clusters those registered names form: no crafted name makes a lookup slow.
/// </remarks>
internal sealed class MethodTable
{
    private const int MaxStackName = 256;

    private readonly Entry[] _slots;
    private readonly DispatchMethod[] _methods;

    public static MethodTable Empty { get; } = new([]);

    private MethodTable(DispatchMethod[] methods)
    {
        _methods = methods;
        var size = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Math.Max(8, methods.Length * 2));
        _slots = new Entry[size];
        foreach (var method in methods)
        {
            var name = Encoding.UTF8.GetBytes(method.Name);
            var hash = Hash(name);
            var index = hash & (size - 1);
            while (_slots[index].Method is not null)
            {
                index = (index + 1) & (size - 1);
            }

            _slots[index] = new Entry(name, hash, method);
        }
    }

    public IReadOnlyCollection<string> Names => Array.ConvertAll(_methods, static m => m.Name);

    public DispatchMethod? Find(ReadOnlySpan<byte> utf8Name)
    {
        var hash = Hash(utf8Name);
        var slots = _slots;
        var mask = slots.Length - 1;
        for (var index = hash & mask; ; index = (index + 1) & mask)
        {
            ref readonly var slot = ref slots[index];
            if (slot.Method is null)
            {
                return null;
            }

            if (slot.Hash == hash && slot.Name.AsSpan().SequenceEqual(utf8Name))
            {
                return slot.Method;
            }
        }
    }

    public DispatchMethod? Find(string name)
    {
        var length = Encoding.UTF8.GetMaxByteCount(name.Length);
        var utf8 = length <= MaxStackName ? stackalloc byte[MaxStackName] : new byte[length];
        return Find(utf8[..Encoding.UTF8.GetBytes(name, utf8)]);
    }

    public MethodTable With(DispatchMethod method) => new([.. _methods, method]);

    public MethodTable Without(DispatchMethod method) => new(Array.FindAll(_methods, m => !ReferenceEquals(m, method)));

    /// <summary>
    /// A cheap hash of the length and the first and last eight bytes (method names are short and often share a
    /// prefix). Only registered names are in the table, so collisions cost registered names a longer probe, never a
    /// peer a slow lookup.
    /// </summary>
    private static int Hash(ReadOnlySpan<byte> utf8)
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

        var mixed = (head * 0x9E3779B97F4A7C15UL) ^ (tail * 0xC2B2AE3D27D4EB4FUL) ^ (ulong)utf8.Length;
        return (int)(mixed ^ (mixed >> 29));
    }

    private readonly record struct Entry(byte[] Name, int Hash, DispatchMethod? Method);
}
