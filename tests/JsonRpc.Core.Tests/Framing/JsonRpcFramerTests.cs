using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

public class JsonRpcFramerTests
{
    [Theory]
    [InlineData("Content-Length: 5\r\n\r\n[1,2]")]
    [InlineData("content-length:5\r\n\r\n[1,2]")]
    [InlineData("CONTENT-LENGTH: 5")]
    [InlineData("Content-Length:")]
    [InlineData("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 5\r\n\r\n[1,2]")]
    [InlineData("content-TYPE:")]
    public void Detect_HeaderFirst_ChoosesContentLength(string first)
    {
        Assert.True(JsonRpcFramer.Detect(Sequence(first), 1234, out var framer));

        Assert.IsType<ContentLengthFramer>(framer);
        Assert.Equal(1234, framer.MaxMessageSize);
    }

    [Theory]
    [InlineData("{")]
    [InlineData("[")]
    [InlineData("{\"jsonrpc\":\"2.0\",\"method\":\"Content-Length:\"}\n")]
    [InlineData("\n")]
    [InlineData(" ")]
    [InlineData("C{")]
    [InlineData("Content-Lengthy: 5")]
    [InlineData("Content-Length 5\r\n")]
    [InlineData("Content-Typo: x")]
    [InlineData("X-Other: 1\r\nContent-Length: 5\r\n\r\n")]
    public void Detect_AnythingElse_ChoosesNewline(string first)
    {
        Assert.True(JsonRpcFramer.Detect(Sequence(first), 1234, out var framer));

        Assert.IsType<NewlineDelimitedFramer>(framer);
        Assert.Equal(1234, framer.MaxMessageSize);
    }

    [Theory]
    [InlineData("")]
    [InlineData("C")]
    [InlineData("content-")]
    [InlineData("Content-Type")]
    [InlineData("Content-Lengt")]
    [InlineData("Content-Length")]
    public void Detect_PrefixOfAHeader_WaitsForMoreBytes(string first)
    {
        Assert.False(JsonRpcFramer.Detect(Sequence(first), 1234, out var framer));
        Assert.Null(framer);
    }

    [Fact]
    public void Detect_HeaderSplitAcrossSegments_ChoosesContentLength()
    {
        var bytes = "Content-Length: 2\r\n\r\n[]"u8.ToArray();
        for (var cut = 1; cut < bytes.Length; cut++)
        {
            Assert.True(JsonRpcFramer.Detect(TestSegment.SplitAt(bytes, 1, cut), 100, out var framer));
            Assert.IsType<ContentLengthFramer>(framer);
        }
    }

    [Fact]
    public void Detect_EachCall_ReturnsANewFramer()
    {
        Assert.True(JsonRpcFramer.Detect(Sequence("{"), 100, out var first));
        Assert.True(JsonRpcFramer.Detect(Sequence("{"), 100, out var second));
        Assert.NotSame(first, second);
    }

    [Fact]
    public void Detect_NonPositiveMaxSize_Throws()
        => Assert.Throws<ArgumentOutOfRangeException>(() => JsonRpcFramer.Detect(Sequence("{"), 0, out _));

    private static ReadOnlySequence<byte> Sequence(string text) => new(Encoding.UTF8.GetBytes(text));
}
