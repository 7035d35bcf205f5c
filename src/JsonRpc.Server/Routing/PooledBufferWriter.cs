using System.Buffers;
using JsonRpc.Buffers;

namespace JsonRpc.Server.Routing;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over buffers rented from <see cref="ArrayPool{T}.Shared"/>; what was written is
/// handed on without a copy by <see cref="Detach"/>. Not thread-safe.
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>
{
    private const int MinimumSize = 256;
    private PooledByteBuffer _storage;

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _storage.WrittenSpan;

    /// <summary>How many bytes were written.</summary>
    public int WrittenCount => _storage.WrittenCount;

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

    /// <summary>Hands over what was written; the writer starts afresh.</summary>
    public OutboundMessage Detach()
    {
        var buffer = _storage.Detach(out var written);
        return new OutboundMessage(buffer, written);
    }

    /// <summary>Forgets what was written and returns the buffer.</summary>
    public void Reset() => _storage.Release();
}
