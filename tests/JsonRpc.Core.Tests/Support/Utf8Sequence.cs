using System.Buffers;

namespace JsonRpc.Core.Tests.Support;

/// <summary>Builds multi-segment sequences, as a PipeReader hands them out.</summary>
internal static class Utf8Sequence
{
    public static ReadOnlySequence<byte> Split(ReadOnlyMemory<byte> bytes, int segmentSize)
    {
        if (bytes.Length <= segmentSize)
        {
            return new ReadOnlySequence<byte>(bytes);
        }

        var first = new Segment(bytes[..segmentSize], 0);
        var last = first;
        for (var start = segmentSize; start < bytes.Length; start += segmentSize)
        {
            last = last.Append(bytes[start..Math.Min(bytes.Length, start + segmentSize)]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
