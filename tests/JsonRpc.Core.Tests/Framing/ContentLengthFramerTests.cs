using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

public class ContentLengthFramerTests
{
    private static readonly string[] Expected =
    [
        """{"jsonrpc":"2.0","method":"initialize","params":{"x":"é€😀"},"id":1}""",
        """[{"jsonrpc":"2.0","method":"a"}]""",
        """{"jsonrpc":"2.0","result":"line\nbreak","id":"2"}""",
        "",
        """{"jsonrpc":"2.0","method":"last"}""",
    ];

    // The header styles peers use: canonical, LSP with Content-Type, odd letter case, no space, padding, leading zeros,
    // Content-Type first, unknown headers, and an empty body.
    private static readonly byte[] Stream = Concat(
        Frame("Content-Length: {0}\r\n\r\n", Expected[0]),
        Frame("Content-Length: {0}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", Expected[1]),
        Frame("Content-Type: application/json;charset=\"UTF8\"\r\nX-Trace: a:b c\r\ncontent-LENGTH:\t 000{0} \r\n\r\n", Expected[2]),
        Frame("CONTENT-LENGTH:{0}\r\n\r\n", Expected[3]),
        Frame("Content-Length: {0}\r\nContent-Type: application/json\r\n\r\n", Expected[4]));

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
    public void TryReadMessage_HeaderStylesOfRealPeers_ReturnsEveryBody()
    {
        Assert.Equal(Expected, FramingDriver.ReadSequence(new ContentLengthFramer(), new ReadOnlySequence<byte>(Stream)));
    }

    [Fact]
    public void TryReadMessage_FedByteByByte_ReturnsEachBodyWhenItsLastByteArrives()
    {
        var ends = FrameEnds();
        var driver = new FramingDriver(new ContentLengthFramer());
        for (var i = 0; i < Stream.Length; i++)
        {
            driver.Feed(Stream.AsSpan(i, 1));
            Assert.Equal(ends.Count(end => end <= i + 1), driver.Messages.Count);
        }

        Assert.Equal(Expected, driver.Messages);
        Assert.Equal(0, driver.Buffered);
    }

    [Fact]
    public void TryReadMessage_EveryPrefix_ReturnsExactlyTheCompleteFrames()
    {
        var ends = FrameEnds();
        for (var length = 0; length <= Stream.Length; length++)
        {
            var buffer = new ReadOnlySequence<byte>(Stream, 0, length);
            var framer = new ContentLengthFramer();
            var messages = new List<string>();
            while (framer.TryReadMessage(ref buffer, out var message))
            {
                messages.Add(FramingDriver.Text(message));
            }

            var complete = ends.Count(end => end <= length);
            Assert.Equal(Expected.Take(complete), messages);
            Assert.Equal(length - (complete == 0 ? 0 : ends[complete - 1]), buffer.Length);
        }
    }

    [Fact]
    public void TryReadMessage_EveryTwoSegmentSplit_ReturnsEveryBody()
    {
        for (var cut = 0; cut <= Stream.Length; cut++)
        {
            Assert.Equal(Expected, FramingDriver.ReadSequence(new ContentLengthFramer(), TestSegment.SplitAt(Stream, cut)));
        }
    }

    [Fact]
    public void TryReadMessage_EveryChunkSize_ReturnsEveryBody()
    {
        for (var size = 1; size <= Stream.Length; size++)
        {
            Assert.Equal(Expected, FramingDriver.ReadSequence(new ContentLengthFramer(), TestSegment.Chunked(Stream, size)));
            Assert.Equal(Expected, FramingDriver.ReadAll(new ContentLengthFramer(), Stream, size));
        }
    }

    [Fact]
    public void TryReadMessage_RandomSegmentsWithEmptyOnes_ReturnsEveryBody()
    {
        var random = new Random(54321);
        for (var round = 0; round < 200; round++)
        {
            var cuts = Enumerable.Range(0, random.Next(1, 40)).Select(_ => random.Next(0, Stream.Length + 1)).Order().ToArray();
            Assert.Equal(Expected, FramingDriver.ReadSequence(new ContentLengthFramer(), TestSegment.SplitAt(Stream, cuts)));
            var sizes = Enumerable.Range(0, 50).Select(_ => random.Next(1, 30)).ToArray();
            Assert.Equal(Expected, FramingDriver.ReadAll(new ContentLengthFramer(), Stream, sizes));
        }
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
        Assert.Equal([body], FramingDriver.ReadAll(new ContentLengthFramer(16), Frame("Content-Length: {0}\r\n\r\n", body), 1));
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

        var error = Assert.Throws<JsonRpcFramingException>(() => driver.FeedAll(header, 1));

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
        var bytes = Concat(Frame("Content-Length: {0}\r\n\r\n", "[1]"), "garbage\r\n\r\n"u8.ToArray());

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

    private static byte[] Frame(string header, string body)
    {
        var bytes = Encoding.UTF8.GetBytes(body);
        return Concat(Encoding.ASCII.GetBytes(string.Format(System.Globalization.CultureInfo.InvariantCulture, header, bytes.Length)), bytes);
    }

    private static byte[] Concat(params byte[][] parts) => [.. parts.SelectMany(part => part)];

    // The offset just past each frame of Stream.
    private static int[] FrameEnds()
    {
        var ends = new List<int>();
        var buffer = new ReadOnlySequence<byte>(Stream);
        var framer = new ContentLengthFramer();
        while (framer.TryReadMessage(ref buffer, out _))
        {
            ends.Add(Stream.Length - (int)buffer.Length);
        }

        return [.. ends];
    }
}
