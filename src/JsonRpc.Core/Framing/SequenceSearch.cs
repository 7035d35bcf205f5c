using System.Buffers;

namespace JsonRpc.Framing;

/// <summary>Searches a <see cref="ReadOnlySequence{T}"/> in place, segment by segment, without copying it.</summary>
internal static class SequenceSearch
{
    /// <summary>The offset of the first <paramref name="value"/> in <c>[from, to)</c>, or -1.</summary>
    public static long IndexOf(in ReadOnlySequence<byte> buffer, byte value, long from, long to)
    {
        if (buffer.IsSingleSegment)
        {
            var index = buffer.FirstSpan[(int)from..(int)to].IndexOf(value);
            return index < 0 ? -1 : from + index;
        }

        long offset = 0;
        foreach (var memory in buffer)
        {
            var end = offset + memory.Length;
            if (end > from)
            {
                var start = (int)Math.Max(0, from - offset);
                var stop = (int)Math.Min(memory.Length, to - offset);
                var index = memory.Span[start..stop].IndexOf(value);
                if (index >= 0)
                {
                    return offset + start + index;
                }
            }

            if (end >= to)
            {
                break;
            }

            offset = end;
        }

        return -1;
    }

    /// <summary>The byte at <paramref name="offset"/>, which must lie within <paramref name="buffer"/>.</summary>
    public static byte ByteAt(in ReadOnlySequence<byte> buffer, long offset)
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
