using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

public class ContentLengthFramerTests
{
    [Fact]
    public void TryReadMessage_OneFrame_ReturnsBodyAndAdvancesPastIt()
    {
        var buffer = new ReadOnlySequence<byte>("Content-Length: 7\r\n\r\n{\"a\":1}Content-Len"u8.ToArray());
        var framer = new ContentLengthFramer();

        Assert.True(framer.TryReadMessage(ref buffer, out var message));

        Assert.Equal("{\"a\":1}", FramingDriver.Text(message));
        Assert.Equal("Content-Len", FramingDriver.Text(buffer));
        Assert.False(framer.TryReadMessage(ref buffer, out _));
        Assert.Equal("Content-Len", FramingDriver.Text(buffer));
    }

    [Fact]
    public void TryReadMessage_BodyAcrossSegments_IsSliceOfInputNotCopy()
    {
        var data = "Content-Length: 17\r\n\r\n{\"method\":\"long\"}"u8.ToArray();
        var buffer = TestSegment.SplitAt(data, 10, 25, 30);
        var bodySegment = buffer.Slice(22).Start.GetObject();

        Assert.True(new ContentLengthFramer().TryReadMessage(ref buffer, out var message));

        Assert.False(message.IsSingleSegment);
        Assert.Same(bodySegment, message.Start.GetObject());
        Assert.Equal("{\"method\":\"long\"}", FramingDriver.Text(message));
    }

    [Fact]
    public void TryReadMessage_BodyOfExactlyMaxSize_IsAccepted()
    {
        var body = new string('x', 16);
        Assert.Equal([body], FramingDriver.ReadAll(new ContentLengthFramer(16), FramingSample.Frame("Content-Length: {0}\r\n\r\n", body), 1));
    }

    [Fact]
    public void TryReadMessage_DeclaredLengthOverMax_FailsWhenItsLineArrivesBeforeAnyBody()
    {
        var driver = new FramingDriver(new ContentLengthFramer(16));
        driver.FeedAll("Content-Length: 17\r"u8.ToArray(), 1);

        var error = Assert.Throws<JsonRpcFramingException>(() => driver.Feed("\n"u8));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.Equal("A message declares Content-Length: 17, more than the maximum of 16 bytes.", error.Message);
        Assert.Equal(20, driver.MaxBuffered);
    }

    [Theory]
    [InlineData("Content-Length: 4294967296\r\n")]
    [InlineData("Content-Length: 99999999999999999999999999999999\r\n")]
    [InlineData("X-First: 1\r\ncontent-length: 2147483648\r\n")]
    public void TryReadMessage_HugeDeclaredLength_IsTooLargeNotOverflow(string header)
    {
        var buffer = new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(header));

        var error = Assert.Throws<JsonRpcFramingException>(() => new ContentLengthFramer().TryReadMessage(ref buffer, out _));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
    }

    [Fact]
    public void TryReadMessage_HeaderBlockNeverEnding_FailsAtMaxHeaderSize()
    {
        var header = Encoding.ASCII.GetBytes("Content-Length: 5\r\n" + string.Concat(Enumerable.Repeat("X-Padding: 0123456789\r\n", 400)));
        var driver = new FramingDriver(new ContentLengthFramer());

        // A big first read, then byte by byte around the limit.
        var error = Assert.Throws<JsonRpcFramingException>(() => driver.FeedAll(header, 4000, 1));

        Assert.Equal(JsonRpcFramingErrorReason.HeaderTooLarge, error.Reason);
        Assert.Equal(ContentLengthFramer.MaxHeaderSize, driver.MaxBuffered);
    }

    [Fact]
    public void TryReadMessage_OneHeaderLineLongerThanMaxHeaderSize_Fails()
    {
        var buffer = new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes("X-Long: " + new string('a', 10_000)));

        var error = Assert.Throws<JsonRpcFramingException>(() => new ContentLengthFramer().TryReadMessage(ref buffer, out _));

        Assert.Equal(JsonRpcFramingErrorReason.HeaderTooLarge, error.Reason);
    }

    [Fact]
    public void TryReadMessage_HeaderBlockOfExactlyMaxHeaderSize_IsAccepted()
    {
        var prefix = "Content-Length: 2\r\nX-Pad: ";
        var header = prefix + new string('p', ContentLengthFramer.MaxHeaderSize - prefix.Length - 4) + "\r\n\r\n";
        Assert.Equal(ContentLengthFramer.MaxHeaderSize, header.Length);

        Assert.Equal(["[]"], FramingDriver.ReadAll(new ContentLengthFramer(), Encoding.ASCII.GetBytes(header + "[]"), 100));
    }

    [Theory]
    [InlineData("Content-Length 5\r\n\r\n", "has no ':'")]
    [InlineData("Content-Length : 5\r\n\r\n", "header name")]
    [InlineData(": 5\r\n\r\n", "header name")]
    [InlineData(" Content-Length: 5\r\n\r\n", "folded")]
    [InlineData("Content-Length: 5\r\n X-Folded: 1\r\n\r\n", "folded")]
    [InlineData("Content(Length): 5\r\n\r\n", "header name")]
    [InlineData("Content-Length: five\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: -5\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: +5\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: 5 5\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: 0x10\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: 5.0\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length:\r\n\r\n", "not a decimal")]
    [InlineData("Content-Length: 5\n\n", "CRLF")]
    [InlineData("Content-Length: 5\r\n\n", "CRLF")]
    [InlineData("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", "CRLF")]
    [InlineData("Content-Length: 5\rX-Other: 1\r\n\r\n", "control character")]
    [InlineData("Content-Length: 5\r\nX-Bad: a\u0001b\r\n\r\n", "control character")]
    [InlineData("Content-Length: 5\r\nContent-Length: 5\r\n\r\n", "more than once")]
    [InlineData("Content-Length: 5\r\ncontent-length: 6\r\n\r\n", "more than once")]
    [InlineData("Content-Type: application/json\r\nContent-Length: 5\r\nCONTENT-TYPE: application/json\r\n\r\n", "more than once")]
    [InlineData("Content-Length: 5\r\nContent-Type: application/json; charset=utf-16\r\n\r\n", "not UTF-8")]
    [InlineData("Content-Type: text/plain; format=x; CHARSET = \"latin1\"\r\nContent-Length: 5\r\n\r\n", "not UTF-8")]
    [InlineData("X-Other: 1\r\n\r\n", "no Content-Length")]
    [InlineData("\r\n", "no Content-Length")]
    public void TryReadMessage_MalformedHeader_FailsClearlyWhateverTheSplit(string header, string expected)
    {
        var bytes = Encoding.UTF8.GetBytes(header + "[1,2]");
        for (var size = 1; size <= bytes.Length; size++)
        {
            var driver = new FramingDriver(new ContentLengthFramer());

            var error = Assert.Throws<JsonRpcFramingException>(() => driver.FeedAll(bytes, size));

            Assert.Equal(JsonRpcFramingErrorReason.InvalidHeader, error.Reason);
            Assert.Contains(expected, error.Message);
            Assert.StartsWith("Invalid message header: ", error.Message);
            Assert.Empty(driver.Messages);
        }
    }

    [Fact]
    public void TryReadMessage_MalformedHeader_QuotesPeerBytesSafely()
    {
        var buffer = new ReadOnlySequence<byte>("Content-Length: 1\u0007\"\\\r\n\r\n"u8.ToArray());

        var error = Assert.Throws<JsonRpcFramingException>(() => new ContentLengthFramer().TryReadMessage(ref buffer, out _));

        Assert.Equal("Invalid message header: a header value holds a control character (in \"Content-Length: 1\\x07\\x22\\x5C\").", error.Message);
    }

    [Fact]
    public void TryReadMessage_ValidFrameThenGarbage_ReturnsFrameThenFails()
    {
        var driver = new FramingDriver(new ContentLengthFramer());
        var bytes = FramingSample.Concat(FramingSample.Frame("Content-Length: {0}\r\n\r\n", "[1]"), "garbage\r\n\r\n"u8.ToArray());

        var error = Assert.Throws<JsonRpcFramingException>(() => driver.FeedAll(bytes, 4));

        Assert.Equal(["[1]"], driver.Messages);
        Assert.Equal(JsonRpcFramingErrorReason.InvalidHeader, error.Reason);
    }

    [Fact]
    public void Constructor_NonPositiveMaxSize_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new ContentLengthFramer(-1));
        Assert.Equal(JsonRpcFramer.DefaultMaxMessageSize, new ContentLengthFramer().MaxMessageSize);
        Assert.Equal(JsonRpcFramer.DefaultMaxMessageSize, ContentLengthFramer.DefaultMaxMessageSize);
    }

    [Fact]
    public void WriteMessage_WritesCanonicalHeaderThenBody()
    {
        var output = new ArrayBufferWriter<byte>();
        var framer = new ContentLengthFramer();

        framer.WriteMessage(output, "{\"a\":\"é\"}"u8);
        framer.WriteMessage(output, ""u8);

        Assert.Equal("Content-Length: 10\r\n\r\n{\"a\":\"é\"}Content-Length: 0\r\n\r\n", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4000)]
    [InlineData(4096)]
    [InlineData(100_000)]
    public void WriteMessage_AnySizeIntoSmallChunks_ReadsBackTheSameBytes(int size)
    {
        var body = new byte[size];
        new Random(size).NextBytes(body);
        var output = new SmallChunkWriter(64);
        var framer = new ContentLengthFramer(1 << 20);

        framer.WriteMessage(output, body);

        var buffer = new ReadOnlySequence<byte>(output.ToArray());
        Assert.True(framer.TryReadMessage(ref buffer, out var message));
        Assert.Equal(body, message.ToArray());
        Assert.True(buffer.IsEmpty);
        Assert.True(output.LargestSizeHint <= 4096, $"asked for {output.LargestSizeHint} bytes at once");
    }
}
