using System.Buffers;
using System.Text.Json;
using JsonRpc.Buffers;
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

    private PooledByteBuffer _storage;
    private Utf8JsonWriter? _writer;

    private MessageBuffer()
    {
    }

    public int WrittenCount => _storage.WrittenCount;

    public ReadOnlyMemory<byte> WrittenMemory => _storage.WrittenMemory;

    public ReadOnlySpan<byte> WrittenSpan => _storage.WrittenSpan;

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
        if (buffer._storage.Capacity > KeepSize)
        {
            // Keep the cache small: a one-off huge message should not pin its buffer on this thread.
            buffer._storage.Release();
        }
        else
        {
            buffer._storage.Clear();
        }

        t_cached = buffer;
    }

    public void Advance(int count) => _storage.Advance(count);

    public Memory<byte> GetMemory(int sizeHint = 0) => _storage.GetMemory(sizeHint, InitialSize);

    public Span<byte> GetSpan(int sizeHint = 0) => _storage.GetSpan(sizeHint, InitialSize);

    /// <summary>Inserts one byte at <paramref name="index"/>, shifting what follows (for small values only).</summary>
    public void Insert(int index, byte value) => _storage.Insert(index, value, InitialSize);

    public byte this[int index] => _storage.WrittenSpan[index];
}
