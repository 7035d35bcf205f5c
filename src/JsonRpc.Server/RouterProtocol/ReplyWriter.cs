using System.Buffers;
using System.Text.Json;
using JsonRpc.Buffers;
using JsonRpc.Serialization;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.RouterProtocol;

/// <summary>
/// Writes the router's own replies (errors, built-in results) with a <see cref="Utf8JsonWriter"/> kept per thread,
/// into a rented buffer that is handed on without a copy. Also splices ids into forwarded messages.
/// </summary>
internal static class ReplyWriter
{
    private static ReadOnlySpan<byte> NullToken => "null"u8;

    [ThreadStatic]
    private static PooledBufferWriter? t_buffer;

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    /// <summary>
    /// Starts a reply <c>{"jsonrpc":"2.0","id":…</c>; the caller writes the rest and calls <see cref="Finish"/>.
    /// An empty <paramref name="idToken"/> writes <c>null</c>.
    /// </summary>
    public static Utf8JsonWriter Begin(ReadOnlySpan<byte> idToken)
    {
        var buffer = t_buffer ??= new PooledBufferWriter();
        var writer = t_writer;
        if (writer is null)
        {
            writer = t_writer = new Utf8JsonWriter(buffer, JsonRpcMessageWriter.WriterOptions);
        }
        else
        {
            writer.Reset(buffer);
        }

        WriteStart(writer, idToken);
        return writer;
    }

    /// <summary>Writes <c>{"jsonrpc":"2.0","id":…</c> with any writer; an empty <paramref name="idToken"/> writes <c>null</c>.</summary>
    public static void WriteStart(Utf8JsonWriter writer, ReadOnlySpan<byte> idToken)
    {
        writer.WriteStartObject();
        writer.WriteString("jsonrpc"u8, "2.0"u8);
        writer.WritePropertyName("id"u8);
        writer.WriteRawValue(idToken.IsEmpty ? NullToken : idToken, skipInputValidation: true);
    }

    /// <summary>Writes the <c>"error":{"code":…,"message":…,"data":…}</c> member with any writer.</summary>
    public static void WriteErrorMember(Utf8JsonWriter writer, int code, string message, string? data)
    {
        writer.WritePropertyName("error"u8);
        writer.WriteStartObject();
        writer.WriteNumber("code"u8, code);
        writer.WriteString("message"u8, message);
        if (data is not null)
        {
            writer.WriteString("data"u8, data);
        }

        writer.WriteEndObject();
    }

    /// <summary>Ends the reply and delivers it: straight to <paramref name="caller"/>, or into <paramref name="batch"/>.</summary>
    public static void Finish(Utf8JsonWriter writer, RouterConnection caller, BatchReply? batch, bool announced = false)
    {
        writer.WriteEndObject();
        writer.Flush();
        var buffer = t_buffer!;
        if (batch is null)
        {
            caller.Send(TakeRightSized(buffer), owed: announced);
        }
        else
        {
            if (announced)
            {
                batch.Complete(buffer.WrittenSpan);
            }
            else
            {
                batch.Add(buffer.WrittenSpan);
            }

            buffer.Reset();
        }
    }

    // Replies up to this size are queued in a buffer of their own size.
    private const int SmallReply = 1024;

    /// <summary>
    /// The message written into <paramref name="buffer"/>. The working buffer is at least 256 bytes (a fresh
    /// Utf8JsonWriter asks for 4 KB and more), so a small reply (an error, a built-in's result: often 40 to 100 bytes)
    /// queued in it would hold several times its size, and count so against the connection's bound and the memory
    /// budget. A small one is copied into a buffer of its own size (ArrayPool's: 64 bytes for a 40-byte answer) and the
    /// working buffer kept for the next reply; a large one is handed on as it is.
    /// </summary>
    public static OutboundMessage TakeRightSized(PooledBufferWriter buffer)
    {
        if (buffer.WrittenCount > SmallReply)
        {
            return OutboundMessage.TakeFrom(buffer);
        }

        var message = Copy(buffer.WrittenSpan);
        buffer.Rewind();
        return message;
    }

    /// <summary>Sends <c>{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}</c>.</summary>
    public static void Error(RouterConnection caller, BatchReply? batch, ReadOnlySpan<byte> idToken, int code, string message, string? data = null, bool announced = false)
    {
        var writer = Begin(idToken);
        WriteErrorMember(writer, code, message, data);
        Finish(writer, caller, batch, announced);
    }

    /// <summary>Sends <c>{"jsonrpc":"2.0","id":…,"result":true|false}</c>.</summary>
    public static void Result(RouterConnection caller, BatchReply? batch, ReadOnlySpan<byte> idToken, bool value)
    {
        var writer = Begin(idToken);
        writer.WriteBoolean("result"u8, value);
        Finish(writer, caller, batch);
    }

    /// <summary>
    /// Copies <paramref name="message"/> into a rented buffer with the token at <paramref name="idToken"/> replaced by
    /// <paramref name="newId"/>; nothing else is touched.
    /// </summary>
    public static OutboundMessage Splice(ReadOnlySpan<byte> message, Range idToken, ReadOnlySpan<byte> newId)
    {
        var (start, length) = idToken.GetOffsetAndLength(message.Length);
        var size = message.Length - length + newId.Length;
        var buffer = ArrayPool<byte>.Shared.Rent(size);
        message[..start].CopyTo(buffer);
        newId.CopyTo(buffer.AsSpan(start));
        message[(start + length)..].CopyTo(buffer.AsSpan(start + newId.Length));
        return new OutboundMessage(buffer, size);
    }

    /// <summary>
    /// <paramref name="message"/> with the id at <paramref name="idToken"/> (relative to the message) replaced by
    /// <paramref name="newId"/>, taking over its buffer: in place when the room before the message
    /// (<see cref="OutboundMessage.Offset"/>) takes the difference (only the bytes before the id move), else in a new
    /// buffer, the old one returned.
    /// </summary>
    public static OutboundMessage SpliceInPlace(OutboundMessage message, Range idToken, ReadOnlySpan<byte> newId)
    {
        var (start, length) = idToken.GetOffsetAndLength(message.Length);
        var shift = newId.Length - length;
        if (shift > message.Offset)
        {
            var spliced = Splice(message.Span, idToken, newId);
            message.Return();
            return spliced;
        }

        var buffer = message.Buffer.AsSpan();
        var idEnd = message.Offset + start + length;
        var head = message.Offset - shift;
        buffer.Slice(message.Offset, start).CopyTo(buffer[head..]); // may overlap: CopyTo moves as through a copy
        newId.CopyTo(buffer[(idEnd - newId.Length)..]);
        return new OutboundMessage(message.Buffer, head, message.Length + shift);
    }

    /// <summary>A copy of <paramref name="message"/> in a rented buffer.</summary>
    public static OutboundMessage Copy(ReadOnlySpan<byte> message)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(message.Length);
        message.CopyTo(buffer);
        return new OutboundMessage(buffer, message.Length);
    }

    /// <summary><c>{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":routerId}}</c> in a rented buffer.</summary>
    public static OutboundMessage CancelRequest(long routerId)
    {
        ReadOnlySpan<byte> head = "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":"u8;
        var buffer = ArrayPool<byte>.Shared.Rent(head.Length + 22);
        head.CopyTo(buffer);
        System.Buffers.Text.Utf8Formatter.TryFormat(routerId, buffer.AsSpan(head.Length), out var written);
        var length = head.Length + written;
        buffer[length++] = (byte)'}';
        buffer[length++] = (byte)'}';
        return new OutboundMessage(buffer, length);
    }
}
