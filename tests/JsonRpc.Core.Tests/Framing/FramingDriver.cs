using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>
/// Feeds a framer the way a pipe does: each chunk that arrives is appended as a new segment after the bytes not yet
/// consumed, which stay where they are, and the framer is asked for messages until it needs more.
/// </summary>
internal sealed class FramingDriver
{
    private readonly IJsonRpcFramer _framer;
    private TestSegment? _last;
    private SequencePosition _consumed;

    public FramingDriver(IJsonRpcFramer framer) => _framer = framer;

    public List<string> Messages { get; } = [];

    /// <summary>Unconsumed bytes after the last <see cref="Feed"/>.</summary>
    public long Buffered { get; private set; }

    /// <summary>The most unconsumed bytes the framer was ever shown.</summary>
    public long MaxBuffered { get; private set; }

    /// <summary>Feeds <paramref name="stream"/> in chunks of the given sizes (the last one repeated), returns the messages.</summary>
    public static List<string> ReadAll(IJsonRpcFramer framer, byte[] stream, params int[] chunkSizes)
    {
        var driver = new FramingDriver(framer);
        driver.FeedAll(stream, chunkSizes);
        Assert.Equal(0, driver.Buffered);
        return driver.Messages;
    }

    /// <summary>Reads every message out of one sequence, which must hold nothing else.</summary>
    public static List<string> ReadSequence(IJsonRpcFramer framer, ReadOnlySequence<byte> buffer)
    {
        var messages = new List<string>();
        while (framer.TryReadMessage(ref buffer, out var message))
        {
            messages.Add(Text(message));
        }

        Assert.True(buffer.IsEmpty);
        return messages;
    }

    public void FeedAll(byte[] stream, params int[] chunkSizes)
    {
        var offset = 0;
        for (var i = 0; offset < stream.Length; i++)
        {
            var size = Math.Min(chunkSizes[Math.Min(i, chunkSizes.Length - 1)], stream.Length - offset);
            Feed(stream.AsSpan(offset, size));
            offset += size;
        }
    }

    public void Feed(ReadOnlySpan<byte> chunk)
    {
        if (_last is null)
        {
            _last = new TestSegment(chunk);
            _consumed = new SequencePosition(_last, 0);
        }
        else
        {
            _last = _last.Append(chunk);
        }

        var buffer = new ReadOnlySequence<byte>((TestSegment)_consumed.GetObject()!, _consumed.GetInteger(), _last, _last.Memory.Length);
        MaxBuffered = Math.Max(MaxBuffered, buffer.Length);
        try
        {
            while (_framer.TryReadMessage(ref buffer, out var message))
            {
                Messages.Add(Text(message));
            }
        }
        finally
        {
            _consumed = buffer.Start;
            Buffered = buffer.Length;
        }
    }

    public static string Text(in ReadOnlySequence<byte> bytes) => Encoding.UTF8.GetString(bytes);
}
