using System.Text;
using JsonRpc.Serialization;

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

    private static int Hash(ReadOnlySpan<byte> utf8) => (int)Utf8Hash.Of(utf8);

    private readonly record struct Entry(byte[] Name, int Hash, DispatchMethod? Method);
}
