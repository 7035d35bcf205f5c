using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

public class NewlineDelimitedFramerTests
{
    [Fact]
    public void TryReadMessage_SingleLine_ReturnsMessageWithoutTerminatorAndAdvances()
    {
        var buffer = new ReadOnlySequence<byte>("{\"a\":1}\n{\"b\""u8.ToArray());
        var framer = new NewlineDelimitedFramer();

        Assert.True(framer.TryReadMessage(ref buffer, out var message));

        Assert.Equal("{\"a\":1}", FramingDriver.Text(message));
        Assert.Equal("{\"b\"", FramingDriver.Text(buffer));
        Assert.False(framer.TryReadMessage(ref buffer, out _));
        Assert.Equal("{\"b\"", FramingDriver.Text(buffer));
    }

    [Fact]
    public void TryReadMessage_OnlyBlankLines_ConsumesThemAndReturnsFalse()
    {
        var buffer = new ReadOnlySequence<byte>("\n\r\n  \n\t\r\n{\"a\""u8.ToArray());

        Assert.False(new NewlineDelimitedFramer().TryReadMessage(ref buffer, out _));

        // The blank lines are gone, so a peer sending nothing but blank lines cannot fill the buffer.
        Assert.Equal("{\"a\"", FramingDriver.Text(buffer));
    }

    [Fact]
    public void TryReadMessage_CrLfSplitBetweenSegments_DropsCarriageReturn()
    {
        var data = "{\"a\":1}\r\n"u8.ToArray();
        var buffer = TestSegment.SplitAt(data, 8);
        Assert.True(new NewlineDelimitedFramer().TryReadMessage(ref buffer, out var message));
        Assert.Equal("{\"a\":1}", FramingDriver.Text(message));
        Assert.True(buffer.IsEmpty);
    }

    [Fact]
    public void TryReadMessage_MessageAcrossSegments_IsSliceOfInputNotCopy()
    {
        var data = "{\"method\":\"long\"}\n"u8.ToArray();
        var buffer = TestSegment.SplitAt(data, 3, 9);
        var start = buffer.Start;

        Assert.True(new NewlineDelimitedFramer().TryReadMessage(ref buffer, out var message));

        Assert.False(message.IsSingleSegment);
        Assert.Same(start.GetObject(), message.Start.GetObject());
        Assert.Equal("{\"method\":\"long\"}", FramingDriver.Text(message));
    }

    [Fact]
    public void TryReadMessage_LineOfExactlyMaxSize_IsAccepted()
    {
        var line = new string('x', 16);
        Assert.Equal([line, line], FramingDriver.ReadAll(new NewlineDelimitedFramer(16), Encoding.ASCII.GetBytes(line + "\n" + line + "\r\n"), 1));
    }

    [Theory]
    [InlineData("\n")]
    [InlineData("\r\n")]
    public void TryReadMessage_CompleteLineOverMaxSize_Throws(string terminator)
    {
        var buffer = new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(new string('x', 17) + terminator));

        var error = Assert.Throws<JsonRpcFramingException>(() => new NewlineDelimitedFramer(16).TryReadMessage(ref buffer, out _));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.Contains("16 bytes", error.Message);
    }

    [Fact]
    public void TryReadMessage_NoNewlineFedByteByByte_FailsAtMaxSizePlusOneByte()
    {
        var driver = new FramingDriver(new NewlineDelimitedFramer(16));
        for (var i = 0; i < 16; i++)
        {
            driver.Feed("x"u8);
        }

        Assert.Equal(16, driver.Buffered);
        var error = Assert.Throws<JsonRpcFramingException>(() => driver.Feed("x"u8));
        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.Equal(17, driver.MaxBuffered);
    }

    [Fact]
    public void TryReadMessage_MaxSizeThenCarriageReturn_WaitsForNewline()
    {
        var driver = new FramingDriver(new NewlineDelimitedFramer(16));
        driver.FeedAll(Encoding.ASCII.GetBytes(new string('x', 16) + "\r"), 1);
        Assert.Empty(driver.Messages);

        driver.Feed("\n"u8);

        Assert.Equal([new string('x', 16)], driver.Messages);
    }

    [Fact]
    public void TryReadMessage_MaxSizeThenCarriageReturnThenMore_Throws()
    {
        var driver = new FramingDriver(new NewlineDelimitedFramer(16));
        driver.FeedAll(Encoding.ASCII.GetBytes(new string('x', 16) + "\r"), 1);

        var error = Assert.Throws<JsonRpcFramingException>(() => driver.Feed("x"u8));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.Equal(18, driver.MaxBuffered);
    }

    [Fact]
    public void TryReadMessage_OversizeAfterValidMessages_ReturnsThemFirst()
    {
        var driver = new FramingDriver(new NewlineDelimitedFramer(16));
        var error = Assert.Throws<JsonRpcFramingException>(
            () => driver.FeedAll(Encoding.ASCII.GetBytes("[1]\n[2]\r\n" + new string('y', 40)), 3));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.Equal(["[1]", "[2]"], driver.Messages);
        Assert.True(driver.MaxBuffered <= 17 + 3 - 1, $"buffered {driver.MaxBuffered}");
    }

    [Fact]
    public void TryReadMessage_LargeMessageInManySmallReads_ReturnsIt()
    {
        // Exercises the remembered search position: each read adds 7 bytes to a 200 KB line.
        var body = "[" + string.Join(",", Enumerable.Repeat("\"abcdefghij\"", 16_000)) + "]";
        var stream = Encoding.ASCII.GetBytes(body + "\n[2]\n");

        var messages = FramingDriver.ReadAll(new NewlineDelimitedFramer(), stream, 7);

        Assert.Equal([body, "[2]"], messages);
    }

    [Fact]
    public void TryReadMessage_MoreBytesAfterFalse_SearchesOnlyTheNewBytes()
    {
        var framer = new NewlineDelimitedFramer();
        var first = new TestSegment("[1,"u8);
        var second = first.Append("2,"u8);
        var buffer = new ReadOnlySequence<byte>(first, 0, second, 2);
        Assert.False(framer.TryReadMessage(ref buffer, out _));

        // Bytes already searched are never searched again: a newline slipped into them (which a real pipe never does)
        // goes unseen, so a line arriving in n reads costs one pass, not n.
        ArrayOf(first)[1] = (byte)'\n';
        var third = second.Append("3]\n"u8);
        buffer = new ReadOnlySequence<byte>(first, 0, third, 3);

        Assert.True(framer.TryReadMessage(ref buffer, out var message));
        Assert.Equal("[\n,2,3]", FramingDriver.Text(message));
    }

    private static byte[] ArrayOf(TestSegment segment)
    {
        Assert.True(System.Runtime.InteropServices.MemoryMarshal.TryGetArray(segment.Memory, out var array));
        return array.Array!;
    }

    [Fact]
    public void TryReadMessage_OneFramerOverUnrelatedBuffers_DoesNotReuseSearchState()
    {
        var framer = new NewlineDelimitedFramer();
        var first = new ReadOnlySequence<byte>("[1,2,3,4"u8.ToArray());
        Assert.False(framer.TryReadMessage(ref first, out _));

        // Shorter, different memory, newline early: must be found even though the last search covered 8 bytes.
        var second = new ReadOnlySequence<byte>("[5]\n"u8.ToArray());
        Assert.True(framer.TryReadMessage(ref second, out var message));
        Assert.Equal("[5]", FramingDriver.Text(message));

        // Same memory, same start, but a shorter view than was searched: searched again from the start.
        var data = "[6]\n[7]\n"u8.ToArray();
        var whole = new ReadOnlySequence<byte>(data, 4, 3);
        Assert.False(framer.TryReadMessage(ref whole, out _));
        var shorter = new ReadOnlySequence<byte>(data, 0, 4);
        Assert.True(framer.TryReadMessage(ref shorter, out message));
        Assert.Equal("[6]", FramingDriver.Text(message));
    }

    [Fact]
    public void Constructor_NonPositiveMaxSize_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new NewlineDelimitedFramer(0));
        Assert.Equal(4 * 1024 * 1024, new NewlineDelimitedFramer().MaxMessageSize);
        Assert.Equal(JsonRpcFramer.DefaultMaxMessageSize, NewlineDelimitedFramer.DefaultMaxMessageSize);
    }

    [Fact]
    public void WriteMessage_AppendsNewline()
    {
        var output = new ArrayBufferWriter<byte>();
        var framer = new NewlineDelimitedFramer();

        framer.WriteMessage(output, """{"jsonrpc":"2.0","method":"a"}"""u8);
        framer.WriteMessage(output, "[1]"u8);

        Assert.Equal("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n[1]\n", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    [Fact]
    public void WriteMessage_RawLineBreaksInJson_WritesThemAsSpacesSoFrameStaysWhole()
    {
        var indented = "{\r\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\\n\"\r\n}"u8;
        var output = new ArrayBufferWriter<byte>();
        var framer = new NewlineDelimitedFramer();

        framer.WriteMessage(output, indented);

        Assert.Equal("{    \"jsonrpc\": \"2.0\",   \"method\": \"a\\n\"  }\n", Encoding.UTF8.GetString(output.WrittenSpan));
        var buffer = new ReadOnlySequence<byte>(output.WrittenMemory);
        Assert.True(framer.TryReadMessage(ref buffer, out var message));
        Assert.Equal(Protocol.JsonRpcMessage.Parse(indented.ToArray()).ToString(), Protocol.JsonRpcMessage.Parse(message).ToString());
        Assert.True(buffer.IsEmpty);
    }

    [Fact]
    public void WriteMessage_LargerThanOutputChunks_WritesWholeMessage()
    {
        var payload = Encoding.ASCII.GetBytes("[\"" + new string('z', 20_000) + "\",\r\n1]");
        var output = new SmallChunkWriter(100);

        new NewlineDelimitedFramer().WriteMessage(output, payload);

        Assert.Equal("[\"" + new string('z', 20_000) + "\",  1]\n", Encoding.ASCII.GetString(output.ToArray()));
        Assert.True(output.LargestSizeHint <= 4096, $"asked for {output.LargestSizeHint} bytes at once");
    }
}
