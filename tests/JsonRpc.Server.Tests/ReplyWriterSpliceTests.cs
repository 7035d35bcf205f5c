using System.Buffers;
using System.Text;
using JsonRpc.Server.Routing;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Tests;

/// <summary>A batch read ahead goes out in the buffer it was kept in, the consumer's id spliced in place.</summary>
public sealed class ReplyWriterSpliceTests
{
    private const string Answer = """{"jsonrpc":"2.0","id":123456,"result":{"values":[1,2,3],"finished":false}}""";

    [Theory]
    [InlineData("7", true)] // shorter: the head moves forward
    [InlineData("654321", true)] // the same length
    [InlineData("\"consumer-call-0001\"", true)] // longer, within the room before the message
    [InlineData("\"a-string-id-far-longer-than-the-room-kept-before-it\"", false)] // past it: a new buffer
    public void SpliceInPlace_AnyId_TheMessageWithThatId(string newId, bool inPlace)
    {
        const int room = 16;
        var bytes = Encoding.UTF8.GetBytes(Answer);
        var buffer = ArrayPool<byte>.Shared.Rent(room + bytes.Length);
        buffer.AsSpan(0, room).Fill((byte)'#');
        bytes.CopyTo(buffer.AsSpan(room));
        var idStart = Answer.IndexOf("123456", StringComparison.Ordinal);

        var spliced = ReplyWriter.SpliceInPlace(new OutboundMessage(buffer, room, bytes.Length), new Range(idStart, idStart + 6), Encoding.UTF8.GetBytes(newId));

        Assert.Equal(Answer.Replace("123456", newId, StringComparison.Ordinal), Encoding.UTF8.GetString(spliced.Span));
        Assert.Equal(inPlace, ReferenceEquals(buffer, spliced.Buffer));
        spliced.Return();
    }
}
