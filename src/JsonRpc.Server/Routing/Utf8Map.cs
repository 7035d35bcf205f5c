using System.Diagnostics.CodeAnalysis;

namespace JsonRpc.Server.Routing;

/// <summary>
/// A hash map keyed by UTF-8 bytes, looked up with a span so that routing a message needs no string. Lookups take no
/// lock and allocate nothing; changes (registrations, rare) take a lock and replace the nodes they touch, so a reader
/// always sees a consistent chain.
/// </summary>
/// <remarks>
/// Hashes come from <see cref="HashCode"/>, seeded per process, so peers cannot choose names that collide.
/// </remarks>
internal sealed class Utf8Map<TValue>
    where TValue : class
{
    private readonly Lock _lock = new();
    private Node?[] _buckets = new Node?[16];
    private int _count;

    /// <summary>The number of keys.</summary>
    public int Count => Volatile.Read(ref _count);

    public bool TryGetValue(ReadOnlySpan<byte> key, [MaybeNullWhen(false)] out TValue value)
    {
        var hash = Hash(key);
        var buckets = Volatile.Read(ref _buckets);
        for (var node = Volatile.Read(ref buckets[(uint)hash % (uint)buckets.Length]); node is not null; node = node.Next)
        {
            if (node.Hash == hash && key.SequenceEqual(node.Key))
            {
                value = node.Value;
                return true;
            }
        }

        value = null;
        return false;
    }

    /// <summary>Returns the value for <paramref name="key"/>, adding the one <paramref name="create"/> makes if absent.</summary>
    public TValue GetOrAdd<TState>(ReadOnlySpan<byte> key, TState state, Func<byte[], TState, TValue> create)
    {
        lock (_lock)
        {
            if (TryGetValue(key, out var existing))
            {
                return existing;
            }

            var keyBytes = key.ToArray();
            var value = create(keyBytes, state);
            if (_count + 1 > _buckets.Length)
            {
                Resize(_buckets.Length * 2);
            }

            var hash = Hash(key);
            ref var bucket = ref _buckets[(uint)hash % (uint)_buckets.Length];
            Volatile.Write(ref bucket, new Node(keyBytes, hash, value, bucket));
            Volatile.Write(ref _count, _count + 1);
            return value;
        }
    }

    /// <summary>Removes <paramref name="key"/> if it still maps to <paramref name="value"/>.</summary>
    public bool Remove(ReadOnlySpan<byte> key, TValue value)
    {
        lock (_lock)
        {
            var hash = Hash(key);
            ref var bucket = ref _buckets[(uint)hash % (uint)_buckets.Length];
            if (!Contains(bucket, value))
            {
                return false;
            }

            // Rebuild the chain without the node: readers on the old chain still see every other node.
            Node? rebuilt = null;
            for (var node = bucket; node is not null; node = node.Next)
            {
                if (!ReferenceEquals(node.Value, value))
                {
                    rebuilt = new Node(node.Key, node.Hash, node.Value, rebuilt);
                }
            }

            Volatile.Write(ref bucket, rebuilt);
            Volatile.Write(ref _count, _count - 1);
            return true;
        }
    }

    /// <summary>Adds every value to <paramref name="values"/> (a snapshot; order unspecified).</summary>
    public void CopyValuesTo(List<TValue> values)
    {
        var buckets = Volatile.Read(ref _buckets);
        foreach (var head in buckets)
        {
            for (var node = head; node is not null; node = node.Next)
            {
                values.Add(node.Value);
            }
        }
    }

    private static bool Contains(Node? chain, TValue value)
    {
        for (var node = chain; node is not null; node = node.Next)
        {
            if (ReferenceEquals(node.Value, value))
            {
                return true;
            }
        }

        return false;
    }

    private void Resize(int size)
    {
        var buckets = new Node?[size];
        foreach (var head in _buckets)
        {
            for (var node = head; node is not null; node = node.Next)
            {
                ref var bucket = ref buckets[(uint)node.Hash % (uint)size];
                bucket = new Node(node.Key, node.Hash, node.Value, bucket);
            }
        }

        Volatile.Write(ref _buckets, buckets);
    }

    private static int Hash(ReadOnlySpan<byte> key)
    {
        var hash = new HashCode();
        hash.AddBytes(key);
        return hash.ToHashCode();
    }

    private sealed class Node(byte[] key, int hash, TValue value, Node? next)
    {
        public readonly byte[] Key = key;
        public readonly int Hash = hash;
        public readonly TValue Value = value;
        public readonly Node? Next = next;
    }
}
