using System.Buffers;

namespace JsonRpc.Server.Routing;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over buffers rented from <see cref="ArrayPool{T}.Shared"/>; what was written is
/// handed on without a copy by <see cref="Detach"/>. Not thread-safe.
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>
{
    private const int MinimumSize = 256;
    private byte[] _buffer = [];
    private int _written;

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

    /// <summary>How many bytes were written.</summary>
    public int WrittenCount => _written;

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_written + count > _buffer.Length)
        {
            throw new InvalidOperationException("Advanced past the end of the buffer.");
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    /// <summary>Appends <paramref name="bytes"/>.</summary>
    public void Write(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(GetSpan(bytes.Length));
        _written += bytes.Length;
    }

    /// <summary>Appends one byte.</summary>
    public void Write(byte value)
    {
        GetSpan(1)[0] = value;
        _written++;
    }

    /// <summary>Hands over what was written; the writer starts afresh.</summary>
    public OutboundMessage Detach()
    {
        var message = new OutboundMessage(_buffer, _written);
        _buffer = [];
        _written = 0;
        return message;
    }

    /// <summary>Forgets what was written and returns the buffer.</summary>
    public void Reset()
    {
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }

        _buffer = [];
        _written = 0;
    }

    private void Ensure(int sizeHint)
    {
        if (sizeHint < 1)
        {
            sizeHint = 1;
        }

        if (_buffer.Length - _written >= sizeHint)
        {
            return;
        }

        var size = Math.Max(Math.Max(_buffer.Length * 2, _written + sizeHint), MinimumSize);
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buffer.AsSpan(0, _written).CopyTo(next);
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }

        _buffer = next;
    }
}
