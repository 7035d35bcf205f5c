using System.Buffers;

namespace JsonRpc.Buffers;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> of bytes over <see cref="PooledByteBuffer"/>: arrays rented from
/// <see cref="ArrayPool{T}.Shared"/>; what was written can be handed on without a copy by <see cref="Detach"/>. Not
/// thread-safe. Compiled into each assembly that uses it (linked from src/Shared).
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>, IDisposable
{
    private const int MinimumSize = 256;
    private PooledByteBuffer _storage;

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _storage.WrittenSpan;

    /// <summary>How many bytes were written.</summary>
    public int WrittenCount => _storage.WrittenCount;

    /// <summary>The bytes written so far, as memory (valid until the next write or reset).</summary>
    public ReadOnlyMemory<byte> WrittenMemory => _storage.WrittenMemory;

    public void Advance(int count) => _storage.Advance(count);

    public Memory<byte> GetMemory(int sizeHint = 0) => _storage.GetMemory(sizeHint, MinimumSize);

    public Span<byte> GetSpan(int sizeHint = 0) => _storage.GetSpan(sizeHint, MinimumSize);

    /// <summary>Appends <paramref name="bytes"/>.</summary>
    public void Write(ReadOnlySpan<byte> bytes) => _storage.Write(bytes, MinimumSize);

    /// <summary>Appends one byte.</summary>
    public void Write(byte value)
    {
        GetSpan(1)[0] = value;
        _storage.Advance(1);
    }

    /// <summary>Hands over the rented array and how much of it was written; the writer starts afresh.</summary>
    /// <remarks>The array is the caller's to return to <see cref="ArrayPool{T}.Shared"/> (it may be empty, never rented).</remarks>
    public byte[] Detach(out int written) => _storage.Detach(out written);

    /// <summary>Forgets what was written and returns the buffer.</summary>
    public void Reset() => _storage.Release();

    /// <summary>Forgets what was written, keeping the rented array for the next message.</summary>
    public void Rewind() => _storage.Rewind();

    /// <summary>Returns the buffer.</summary>
    public void Dispose() => _storage.Release();
}
