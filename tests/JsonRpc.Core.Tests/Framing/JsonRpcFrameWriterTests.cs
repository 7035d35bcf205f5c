using System.Buffers;
using System.Text;
using System.Text.Json;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Core.Tests.Framing;

public class JsonRpcFrameWriterTests
{
    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void CommitTo_MessageFromJsonRpcMessageWriter_ReadsBackAsTheSameBytes(string framing)
    {
        var framer = FramingSample.Get(framing).CreateFramer();
        var message = JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":"sum","params":[1,2,"é"],"id":"a"}""");
        var output = new ArrayBufferWriter<byte>();
        using var frame = new JsonRpcFrameWriter(framer);

        JsonRpcMessageWriter.Write(frame, message);
        Assert.Equal(message.ToUtf8Bytes(), frame.WrittenSpan.ToArray());
        frame.CommitTo(output);
        JsonRpcMessageWriter.Write(frame, message);
        frame.CommitTo(output);

        Assert.Equal(0, frame.WrittenCount);
        Assert.Equal(
            [message.ToString(), message.ToString()],
            FramingDriver.ReadSequence(FramingSample.Get(framing).CreateFramer(), new ReadOnlySequence<byte>(output.WrittenMemory)));
    }

    [Fact]
    public void CommitTo_ContentLength_WritesHeaderThenPayload()
    {
        var output = new ArrayBufferWriter<byte>();
        using var frame = new JsonRpcFrameWriter(new ContentLengthFramer());
        using (var json = new Utf8JsonWriter(frame))
        {
            json.WriteStartObject();
            json.WriteString("jsonrpc", "2.0");
            json.WriteString("method", "ping");
            json.WriteEndObject();
        }

        frame.CommitTo(output);

        Assert.Equal("Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    [Fact]
    public void Reset_AfterPartialWrite_DropsItAndOutputNeverSeesIt()
    {
        var output = new ArrayBufferWriter<byte>();
        using var frame = new JsonRpcFrameWriter(new NewlineDelimitedFramer());
        "{\"jsonrpc\":\"2.0\",\"res"u8.CopyTo(frame.GetSpan(100));
        frame.Advance(20);

        frame.Reset();
        "[1]"u8.CopyTo(frame.GetSpan());
        frame.Advance(3);
        frame.CommitTo(output);

        Assert.Equal("[1]\n", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    [Fact]
    public void CommitTo_NothingWritten_Throws()
    {
        using var frame = new JsonRpcFrameWriter(new ContentLengthFramer());
        Assert.Throws<InvalidOperationException>(() => frame.CommitTo(new ArrayBufferWriter<byte>()));
    }

    [Fact]
    public void GetSpan_GrowingPastSeveralBuffers_KeepsEveryByte()
    {
        var payload = new byte[300_000];
        new Random(7).NextBytes(payload);
        var output = new ArrayBufferWriter<byte>();
        using var frame = new JsonRpcFrameWriter(new ContentLengthFramer(1 << 20));

        // Small steps, so the buffer grows many times with bytes already in it.
        for (var offset = 0; offset < payload.Length; offset += 1000)
        {
            payload.AsSpan(offset, 1000).CopyTo(frame.GetSpan(1000));
            frame.Advance(1000);
        }

        Assert.Equal(payload.Length, frame.WrittenCount);
        frame.CommitTo(output);
        var buffer = new ReadOnlySequence<byte>(output.WrittenMemory);
        Assert.True(frame.Framer.TryReadMessage(ref buffer, out var message));
        Assert.Equal(payload, message.ToArray());
    }

    [Fact]
    public void Advance_PastWhatWasHandedOut_Throws()
    {
        using var frame = new JsonRpcFrameWriter(new NewlineDelimitedFramer());
        Assert.Throws<ArgumentOutOfRangeException>(() => frame.Advance(1));
        var free = frame.GetSpan(10).Length;
        Assert.Throws<ArgumentOutOfRangeException>(() => frame.Advance(free + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => frame.Advance(-1));
    }

    [Fact]
    public void CommitTo_OutputThrows_StillStartsANewMessage()
    {
        using var frame = new JsonRpcFrameWriter(new NewlineDelimitedFramer());
        "[1]"u8.CopyTo(frame.GetSpan());
        frame.Advance(3);

        Assert.Throws<InvalidOperationException>(() => frame.CommitTo(new ThrowingWriter()));

        Assert.Equal(0, frame.WrittenCount);
    }

    private sealed class ThrowingWriter : IBufferWriter<byte>
    {
        public void Advance(int count) => throw new InvalidOperationException("closed");

        public Memory<byte> GetMemory(int sizeHint = 0) => throw new InvalidOperationException("closed");

        public Span<byte> GetSpan(int sizeHint = 0) => throw new InvalidOperationException("closed");
    }
}
