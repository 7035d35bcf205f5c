using System.Buffers;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>A segment of a hand-built multi-segment sequence; each one owns its own memory.</summary>
internal sealed class TestSegment : ReadOnlySequenceSegment<byte>
{
    public TestSegment(ReadOnlySpan<byte> bytes) => Memory = bytes.ToArray();

    public TestSegment Append(ReadOnlySpan<byte> bytes)
    {
        var next = new TestSegment(bytes) { RunningIndex = RunningIndex + Memory.Length };
        Next = next;
        return next;
    }

    /// <summary>The sequence of <paramref name="data"/> cut at <paramref name="cuts"/> (ascending offsets).</summary>
    public static ReadOnlySequence<byte> SplitAt(ReadOnlySpan<byte> data, params int[] cuts)
    {
        var first = new TestSegment(data[..(cuts.Length > 0 ? cuts[0] : data.Length)]);
        var last = first;
        for (var i = 0; i < cuts.Length; i++)
        {
            var end = i + 1 < cuts.Length ? cuts[i + 1] : data.Length;
            last = last.Append(data[cuts[i]..end]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    /// <summary>The sequence of <paramref name="data"/> in segments of <paramref name="size"/> bytes.</summary>
    public static ReadOnlySequence<byte> Chunked(ReadOnlySpan<byte> data, int size)
    {
        var cuts = new List<int>();
        for (var offset = size; offset < data.Length; offset += size)
        {
            cuts.Add(offset);
        }

        return SplitAt(data, [.. cuts]);
    }
}
