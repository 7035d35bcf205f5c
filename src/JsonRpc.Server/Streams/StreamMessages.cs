using System.Buffers;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Streams;

/// <summary>The messages the router writes for streams, and copies of forwarded ones with tokens exchanged.</summary>
internal static class StreamMessages
{
    /// <summary>The error for a pull of a token the puller has no stream of: StreamJsonRpc's <c>NoMarshaledObjectFound</c>.</summary>
    public const int UnknownToken = -32001;

    /// <summary><c>{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[token]}</c>, as StreamJsonRpc's consumer sends it.</summary>
    public static OutboundMessage Abort(ReadOnlySpan<byte> token)
    {
        ReadOnlySpan<byte> head = "{\"jsonrpc\":\"2.0\",\"method\":\"$/enumerator/abort\",\"params\":["u8;
        ReadOnlySpan<byte> tail = "]}"u8;
        var size = head.Length + token.Length + tail.Length;
        var buffer = ArrayPool<byte>.Shared.Rent(size);
        head.CopyTo(buffer);
        token.CopyTo(buffer.AsSpan(head.Length));
        tail.CopyTo(buffer.AsSpan(head.Length + token.Length));
        return new OutboundMessage(buffer, size);
    }

    /// <summary><c>{"jsonrpc":"2.0","id":routerId,"method":"$/enumerator/next","params":[token]}</c>: the router's own pull.</summary>
    public static OutboundMessage Next(long routerId, ReadOnlySpan<byte> token)
    {
        ReadOnlySpan<byte> head = "{\"jsonrpc\":\"2.0\",\"id\":"u8;
        ReadOnlySpan<byte> middle = ",\"method\":\"$/enumerator/next\",\"params\":["u8;
        ReadOnlySpan<byte> tail = "]}"u8;
        var buffer = ArrayPool<byte>.Shared.Rent(head.Length + 20 + middle.Length + token.Length + tail.Length);
        head.CopyTo(buffer);
        var size = head.Length;
        System.Buffers.Text.Utf8Formatter.TryFormat(routerId, buffer.AsSpan(size), out var digits);
        size += digits;
        middle.CopyTo(buffer.AsSpan(size));
        size += middle.Length;
        token.CopyTo(buffer.AsSpan(size));
        size += token.Length;
        tail.CopyTo(buffer.AsSpan(size));
        return new OutboundMessage(buffer, size + tail.Length);
    }

    /// <summary>
    /// A copy of <paramref name="message"/> with each range of <paramref name="edits"/> (in any order, never
    /// overlapping) replaced by its bytes; nothing else is touched.
    /// </summary>
    public static OutboundMessage Splice(ReadOnlySpan<byte> message, List<Edit> edits)
    {
        edits.Sort(static (a, b) => a.Start.CompareTo(b.Start));
        var size = message.Length;
        foreach (var edit in edits)
        {
            size += edit.Value.Length - edit.Length;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(size);
        var written = 0;
        var read = 0;
        foreach (var edit in edits)
        {
            message[read..edit.Start].CopyTo(buffer.AsSpan(written));
            written += edit.Start - read;
            edit.Value.CopyTo(buffer.AsSpan(written));
            written += edit.Value.Length;
            read = edit.Start + edit.Length;
        }

        message[read..].CopyTo(buffer.AsSpan(written));
        return new OutboundMessage(buffer, size);
    }

    /// <summary>Replace <see cref="Length"/> bytes at <see cref="Start"/> with <see cref="Value"/>.</summary>
    internal readonly record struct Edit(int Start, int Length, byte[] Value)
    {
        public static Edit Of(Range range, int offset, int messageLength, byte[] value)
        {
            var (start, length) = range.GetOffsetAndLength(messageLength);
            return new Edit(offset + start, length, value);
        }
    }
}
