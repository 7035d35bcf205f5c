using System.Buffers;
using System.Text.Json;
using JsonRpc.Serialization;

namespace JsonRpc.Client.Internal;

/// <summary>
/// A growable buffer from <see cref="ArrayPool{T}"/> with its own <see cref="Utf8JsonWriter"/>, where one outgoing
/// message is built whole before it is framed: a serializer that throws halfway then leaves nothing on the wire, and
/// Content-Length framing knows the length. One is cached per thread; <see cref="Rent"/> and <see cref="Return"/>
/// hand it out so that an await between them cannot share it.
/// </summary>
internal sealed class MessageBuffer : IBufferWriter<byte>
{
    private const int InitialSize = 1024;
    private const int KeepSize = 64 * 1024;

    [ThreadStatic]
    private static MessageBuffer? t_cached;

    private byte[] _array;
    private int _written;
    private Utf8JsonWriter? _writer;

    private MessageBuffer() => _array = ArrayPool<byte>.Shared.Rent(InitialSize);

    public int WrittenCount => _written;

    public ReadOnlyMemory<byte> WrittenMemory => _array.AsMemory(0, _written);

    public ReadOnlySpan<byte> WrittenSpan => _array.AsSpan(0, _written);

    /// <summary>A writer over this buffer, reset to write a fresh value.</summary>
    public Utf8JsonWriter JsonWriter
    {
        get
        {
            if (_writer is null)
            {
                _writer = new Utf8JsonWriter(this, JsonRpcMessageWriter.WriterOptions);
            }
            else
            {
                _writer.Reset(this);
            }

            return _writer;
        }
    }

    public static MessageBuffer Rent()
    {
        var buffer = t_cached;
        if (buffer is null)
        {
            return new MessageBuffer();
        }

        t_cached = null;
        return buffer;
    }

    public static void Return(MessageBuffer buffer)
    {
        buffer._written = 0;
        if (buffer._array.Length > KeepSize)
        {
            // Keep the cache small: a one-off huge message should not pin its buffer on this thread.
            ArrayPool<byte>.Shared.Return(buffer._array);
            buffer._array = ArrayPool<byte>.Shared.Rent(InitialSize);
        }

        t_cached = buffer;
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_written + count > _array.Length)
        {
            throw new InvalidOperationException("Advanced past the end of the buffer.");
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _array.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _array.AsSpan(_written);
    }

    /// <summary>Inserts one byte at <paramref name="index"/>, shifting what follows (for small values only).</summary>
    public void Insert(int index, byte value)
    {
        Ensure(1);
        _array.AsSpan(index, _written - index).CopyTo(_array.AsSpan(index + 1));
        _array[index] = value;
        _written++;
    }

    public byte this[int index] => _array[index];

    private void Ensure(int sizeHint)
    {
        if (sizeHint < 1)
        {
            sizeHint = 1;
        }

        if (_array.Length - _written >= sizeHint)
        {
            return;
        }

        var size = Math.Max(_array.Length * 2, _written + sizeHint);
        var bigger = ArrayPool<byte>.Shared.Rent(size);
        _array.AsSpan(0, _written).CopyTo(bigger);
        ArrayPool<byte>.Shared.Return(_array);
        _array = bigger;
    }
}
