using System.Buffers;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>Both framers return exactly the messages, in order, however the input is cut into reads and segments.</summary>
public class FramingSplitTests
{
    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_WholeStream_ReturnsEveryMessage(string name)
    {
        var sample = FramingSample.Get(name);
        Assert.Equal(sample.Expected, FramingDriver.ReadSequence(sample.CreateFramer(), new ReadOnlySequence<byte>(sample.Stream)));
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_FedByteByByte_ReturnsEachMessageWhenItsLastByteArrives(string name)
    {
        var sample = FramingSample.Get(name);
        var ends = sample.FrameEnds();
        var driver = new FramingDriver(sample.CreateFramer());
        for (var i = 0; i < sample.Stream.Length; i++)
        {
            driver.Feed(sample.Stream.AsSpan(i, 1));
            Assert.Equal(ends.Count(end => end <= i + 1), driver.Messages.Count);
        }

        Assert.Equal(sample.Expected, driver.Messages);
        Assert.Equal(0, driver.Buffered);
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_EveryPrefix_ReturnsExactlyTheCompleteMessagesAndKeepsTheRest(string name)
    {
        var sample = FramingSample.Get(name);
        var ends = sample.FrameEnds();
        for (var length = 0; length <= sample.Stream.Length; length++)
        {
            var buffer = new ReadOnlySequence<byte>(sample.Stream, 0, length);
            var framer = sample.CreateFramer();
            var messages = new List<string>();
            while (framer.TryReadMessage(ref buffer, out var message))
            {
                messages.Add(FramingDriver.Text(message));
            }

            var complete = ends.Count(end => end <= length);
            Assert.Equal(sample.Expected.Take(complete), messages);

            // What is left is the unfinished frame (a newline framer may also have dropped blank lines before it).
            var consumed = length - (int)buffer.Length;
            Assert.InRange(consumed, complete == 0 ? 0 : ends[complete - 1], complete < ends.Length ? ends[complete] - 1 : length);
        }
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_EveryTwoSegmentSplit_ReturnsEveryMessage(string name)
    {
        var sample = FramingSample.Get(name);
        for (var cut = 0; cut <= sample.Stream.Length; cut++)
        {
            Assert.Equal(sample.Expected, FramingDriver.ReadSequence(sample.CreateFramer(), TestSegment.SplitAt(sample.Stream, cut)));
        }
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_EveryChunkSize_ReturnsEveryMessage(string name)
    {
        var sample = FramingSample.Get(name);
        for (var size = 1; size <= sample.Stream.Length; size++)
        {
            Assert.Equal(sample.Expected, FramingDriver.ReadSequence(sample.CreateFramer(), TestSegment.Chunked(sample.Stream, size)));
            Assert.Equal(sample.Expected, FramingDriver.ReadAll(sample.CreateFramer(), sample.Stream, size));
        }
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_RandomSegmentsWithEmptyOnes_ReturnsEveryMessage(string name)
    {
        var sample = FramingSample.Get(name);
        var random = new Random(12345);
        for (var round = 0; round < 200; round++)
        {
            var cuts = Enumerable.Range(0, random.Next(1, 40)).Select(_ => random.Next(0, sample.Stream.Length + 1)).Order().ToArray();
            Assert.Equal(sample.Expected, FramingDriver.ReadSequence(sample.CreateFramer(), TestSegment.SplitAt(sample.Stream, cuts)));
            var sizes = Enumerable.Range(0, 50).Select(_ => random.Next(1, 30)).ToArray();
            Assert.Equal(sample.Expected, FramingDriver.ReadAll(sample.CreateFramer(), sample.Stream, sizes));
        }
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_OneFramerForWholeConnection_KeepsReturningMessages(string name)
    {
        // The same framer instance across many reads of a long stream, as a connection uses it.
        var sample = FramingSample.Get(name);
        var stream = FramingSample.Concat([.. Enumerable.Repeat(sample.Stream, 50)]);
        var messages = FramingDriver.ReadAll(sample.CreateFramer(), stream, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144);
        Assert.Equal(Enumerable.Repeat(sample.Expected, 50).SelectMany(expected => expected), messages);
    }
}
