using System.Buffers;

namespace JsonRpc.Framing;

/// <summary>Searches a <see cref="ReadOnlySequence{T}"/> in place, segment by segment, without copying it.</summary>
internal static class SequenceSearch
{
    /// <summary>
    /// The offset of the first <paramref name="value"/> in <c>[from, to)</c>, or -1. The walk over the segments starts at
    /// <paramref name="origin"/>, a position in <paramref name="buffer"/> at offset <paramref name="originOffset"/>
    /// (at most <paramref name="from"/>), and both are moved to the start of the last segment searched: a later search
    /// further on starts there rather than at the first segment, and offsets from there on are reached in a step.
    /// </summary>
    public static long IndexOf(
        in ReadOnlySequence<byte> buffer, byte value, long from, long to, ref SequencePosition origin, ref long originOffset)
    {
        if (buffer.IsSingleSegment)
        {
            var index = buffer.FirstSpan[(int)from..(int)to].IndexOf(value);
            return index < 0 ? -1 : from + index;
        }

        var next = origin;
        var offset = originOffset;
        while (offset < to)
        {
            var current = next;
            if (!buffer.TryGet(ref next, out var memory))
            {
                break;
            }

            origin = current;
            originOffset = offset;
            var end = offset + memory.Length;
            if (end > from)
            {
                var start = (int)Math.Max(0, from - offset);
                var index = memory.Span[start..(int)Math.Min(memory.Length, to - offset)].IndexOf(value);
                if (index >= 0)
                {
                    return offset + start + index;
                }
            }

            offset = end;
        }

        return -1;
    }

    /// <summary>The position at <paramref name="offset"/>, reached from <paramref name="origin"/> when that lies before it.</summary>
    public static SequencePosition PositionAt(in ReadOnlySequence<byte> buffer, long offset, SequencePosition origin, long originOffset)
        => offset >= originOffset ? buffer.GetPosition(offset - originOffset, origin) : buffer.GetPosition(offset);

    /// <summary>The byte at <paramref name="offset"/>, reached from <paramref name="origin"/> when that lies before it.</summary>
    public static byte ByteAt(in ReadOnlySequence<byte> buffer, long offset, SequencePosition origin, long originOffset)
        => offset >= originOffset ? ByteAt(buffer.Slice(origin), offset - originOffset) : ByteAt(buffer, offset);

    /// <summary>The byte at <paramref name="offset"/>, which must lie within <paramref name="buffer"/>.</summary>
    private static byte ByteAt(in ReadOnlySequence<byte> buffer, long offset)
    {
        if (buffer.IsSingleSegment)
        {
            return buffer.FirstSpan[(int)offset];
        }

        foreach (var memory in buffer)
        {
            if (offset < memory.Length)
            {
                return memory.Span[(int)offset];
            }

            offset -= memory.Length;
        }

        throw new ArgumentOutOfRangeException(nameof(offset));
    }

    /// <summary>True when every byte is one of <paramref name="values"/> (true for an empty sequence).</summary>
    public static bool ConsistsOf(in ReadOnlySequence<byte> buffer, ReadOnlySpan<byte> values)
    {
        if (buffer.IsSingleSegment)
        {
            return buffer.FirstSpan.IndexOfAnyExcept(values) < 0;
        }

        foreach (var memory in buffer)
        {
            if (memory.Span.IndexOfAnyExcept(values) >= 0)
            {
                return false;
            }
        }

        return true;
    }
}
