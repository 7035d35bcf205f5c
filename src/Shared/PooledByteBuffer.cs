using System.Buffers;

namespace JsonRpc.Buffers;

/// <summary>
/// The storage behind each pooled <see cref="IBufferWriter{T}"/> of bytes in the solution: an array rented from
/// <see cref="ArrayPool{T}.Shared"/>, grown by doubling, and the count of bytes written to it. The writers built on it
/// differ in who owns a written message (framed and returned, handed on, or kept per thread); this is the part they
/// share. Compiled into each assembly that uses it (linked from src/Shared), so it adds no public API.
/// </summary>
/// <remarks>A mutable struct: keep it in a field and call it there, never through a copy.</remarks>
internal struct PooledByteBuffer
{
    private byte[]? _array;
    private int _written;

    /// <summary>How many bytes have been written.</summary>
    public readonly int WrittenCount => _written;

    /// <summary>The bytes written so far.</summary>
    public readonly ReadOnlySpan<byte> WrittenSpan => _array.AsSpan(0, _written);

    /// <summary>The bytes written so far.</summary>
    public readonly ReadOnlyMemory<byte> WrittenMemory => _array.AsMemory(0, _written);

    /// <summary>The length of the rented array (0 before the first byte).</summary>
    public readonly int Capacity => _array?.Length ?? 0;

    /// <summary>Marks <paramref name="count"/> more bytes of the free space as written.</summary>
    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, Capacity - _written);
        _written += count;
    }

    /// <summary>Free space of at least <paramref name="sizeHint"/> bytes (at least one).</summary>
    /// <param name="sizeHint">The bytes the caller needs; 0 for any.</param>
    /// <param name="minimumSize">The smallest array to rent.</param>
    public Span<byte> GetSpan(int sizeHint, int minimumSize)
    {
        EnsureFree(sizeHint, minimumSize);
        return _array.AsSpan(_written);
    }

    /// <inheritdoc cref="GetSpan"/>
    public Memory<byte> GetMemory(int sizeHint, int minimumSize)
    {
        EnsureFree(sizeHint, minimumSize);
        return _array.AsMemory(_written);
    }

    /// <summary>Appends <paramref name="bytes"/>.</summary>
    public void Write(ReadOnlySpan<byte> bytes, int minimumSize)
    {
        bytes.CopyTo(GetSpan(bytes.Length, minimumSize));
        _written += bytes.Length;
    }

    /// <summary>Inserts one byte at <paramref name="index"/> of what was written, moving what follows (small messages only).</summary>
    public void Insert(int index, byte value, int minimumSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(index, _written);
        EnsureFree(1, minimumSize);
        _array.AsSpan(index, _written - index).CopyTo(_array.AsSpan(index + 1));
        _array![index] = value;
        _written++;
    }

    /// <summary>Forgets what was written and keeps the array.</summary>
    public void Clear() => _written = 0;

    /// <summary>Hands over the array and what was written to it; the buffer starts afresh without one.</summary>
    public byte[] Detach(out int written)
    {
        var array = _array ?? [];
        written = _written;
        _array = null;
        _written = 0;
        return array;
    }

    /// <summary>Forgets what was written and returns the array to the pool.</summary>
    /// <summary>Forgets what was written but keeps the array, for the next message.</summary>
    public void Rewind() => _written = 0;

    public void Release()
    {
        _written = 0;
        if (_array is { } array)
        {
            _array = null;
            ArrayPool<byte>.Shared.Return(array);
        }
    }

    private void EnsureFree(int sizeHint, int minimumSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        if (Math.Max(sizeHint, 1) > Capacity - _written)
        {
            Grow(sizeHint, minimumSize);
        }
    }

    private void Grow(int sizeHint, int minimumSize)
    {
        var needed = (long)_written + Math.Max(sizeHint, 1);
        if (needed > Array.MaxLength)
        {
            throw new OutOfMemoryException($"A message cannot grow beyond {Array.MaxLength} bytes.");
        }

        var size = Math.Max(needed, Math.Max(minimumSize, 2L * Capacity));
        var next = ArrayPool<byte>.Shared.Rent((int)Math.Min(size, Array.MaxLength));
        if (_array is { } previous)
        {
            previous.AsSpan(0, _written).CopyTo(next);
            ArrayPool<byte>.Shared.Return(previous);
        }

        _array = next;
    }
}
