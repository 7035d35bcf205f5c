using System.Buffers;
using JsonRpc.Buffers;

namespace JsonRpc.Server.Routing;

/// <summary>
/// One framed-to-be message waiting for a connection's writer: a rented buffer the queue owns until written, the
/// message at <see cref="Offset"/> (0 but for a batch read ahead, kept with room before it for the consumer's id).
/// </summary>
internal readonly struct OutboundMessage(byte[] buffer, int offset, int length)
{
    public OutboundMessage(byte[] buffer, int length)
        : this(buffer, 0, length)
    {
    }

    public byte[] Buffer { get; } = buffer;

    public int Offset { get; } = offset;

    public int Length { get; } = length;

    public ReadOnlySpan<byte> Span => Buffer.AsSpan(Offset, Length);

    public void Return() => ArrayPool<byte>.Shared.Return(Buffer);

    /// <summary>Takes what <paramref name="writer"/> holds, without a copy; the writer starts afresh.</summary>
    public static OutboundMessage TakeFrom(PooledBufferWriter writer)
    {
        var buffer = writer.Detach(out var written);
        return new OutboundMessage(buffer, written);
    }
}
