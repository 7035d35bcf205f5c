using System.Buffers;
using JsonRpc.Core.Tests.Support;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>The read and write hot paths allocate nothing (measured on this thread, after a warm-up pass).</summary>
public class FramingAllocationTests
{
    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_SingleSegment_AllocatesNothing(string framing)
    {
        var sample = FramingSample.Get(framing);
        var buffer = new ReadOnlySequence<byte>(sample.Stream);

        AssertNoAllocation(sample, buffer);
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_MultiSegment_AllocatesNothing(string framing)
    {
        var sample = FramingSample.Get(framing);
        var buffer = TestSegment.Chunked(sample.Stream, 5);

        AssertNoAllocation(sample, buffer);
    }

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void WriteMessage_IntoPreparedBuffer_AllocatesNothing(string framing)
    {
        var framer = FramingSample.Get(framing).CreateFramer();
        var output = new ArrayBufferWriter<byte>(1 << 16);
        var payload = """{"jsonrpc":"2.0","method":"notify","params":{"text":"a\nb"}}"""u8.ToArray();
        using var frame = new JsonRpcFrameWriter(framer);
        WriteBoth(framer, frame, output, payload);

        var allocated = Allocations.Least(() =>
        {
            for (var i = 0; i < 100; i++)
            {
                output.ResetWrittenCount();
                WriteBoth(framer, frame, output, payload);
            }
        });

        Assert.Equal(0, allocated);
        Assert.Equal(2 * (framer is NewlineDelimitedFramer ? payload.Length + 1 : payload.Length + 22), output.WrittenCount);
    }

    private static void WriteBoth(IJsonRpcFramer framer, JsonRpcFrameWriter frame, ArrayBufferWriter<byte> output, byte[] payload)
    {
        framer.WriteMessage(output, payload);
        payload.CopyTo(frame.GetSpan(payload.Length));
        frame.Advance(payload.Length);
        frame.CommitTo(output);
    }

    private static void AssertNoAllocation(FramingSample sample, ReadOnlySequence<byte> buffer)
    {
        var framer = sample.CreateFramer();
        var expectedBytes = ReadAll(framer, buffer);

        long total = 0;
        var allocated = Allocations.Least(() =>
        {
            total = 0;
            for (var i = 0; i < 100; i++)
            {
                total += ReadAll(framer, buffer);

                // Incomplete input too: the "need more" path, with the search position remembered and reused.
                var partial = buffer.Slice(0, buffer.Length - 1);
                total += ReadAll(framer, partial);
            }
        });

        Assert.Equal(0, allocated);
        Assert.Equal(100 * ((2 * expectedBytes) - System.Text.Encoding.UTF8.GetByteCount(sample.Expected[^1])), total);
    }

    private static long ReadAll(IJsonRpcFramer framer, ReadOnlySequence<byte> buffer)
    {
        long bytes = 0;
        while (framer.TryReadMessage(ref buffer, out var message))
        {
            bytes += message.Length;
        }

        return bytes;
    }
}
