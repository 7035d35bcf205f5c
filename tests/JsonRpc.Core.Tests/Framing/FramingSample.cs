using System.Buffers;
using System.Globalization;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>A stream of several framed messages, with the messages a framer must cut out of it.</summary>
internal sealed record FramingSample(string Name, Func<IJsonRpcFramer> CreateFramer, byte[] Stream, string[] Expected)
{
    private static readonly string[] NewlineMessages =
    [
        """{"jsonrpc":"2.0","method":"a","id":1}""",
        """{"jsonrpc":"2.0","method":"b","params":["x\ny","\r"],"id":"2"}""",
        """[{"jsonrpc":"2.0","method":"c"},{"jsonrpc":"2.0","method":"d","id":null}]""",
        """ {"jsonrpc":"2.0","result":"é€😀","id":3}""",
    ];

    private static readonly string[] ContentLengthMessages =
    [
        """{"jsonrpc":"2.0","method":"initialize","params":{"x":"é€😀"},"id":1}""",
        """[{"jsonrpc":"2.0","method":"a"}]""",
        """{"jsonrpc":"2.0","result":"line\nbreak","id":"2"}""",
        "",
        """{"jsonrpc":"2.0","method":"last"}""",
    ];

    /// <summary>LF and CRLF terminators, with empty, CRLF-only and whitespace-only lines between messages.</summary>
    public static FramingSample Newline { get; } = new(
        "newline",
        () => new NewlineDelimitedFramer(),
        Encoding.UTF8.GetBytes(
            NewlineMessages[0] + "\n" + "\r\n" + NewlineMessages[1] + "\r\n" + "\n\n" + " \t \r\n" + NewlineMessages[2] + "\n"
            + "\r\n\r\n" + NewlineMessages[3] + "\n"),
        NewlineMessages);

    /// <summary>
    /// The header styles peers use: canonical, LSP with Content-Type, odd letter case, no space, padding, leading zeros,
    /// Content-Type first, unknown headers, and an empty body.
    /// </summary>
    public static FramingSample ContentLength { get; } = new(
        "content-length",
        () => new ContentLengthFramer(),
        Concat(
            Frame("Content-Length: {0}\r\n\r\n", ContentLengthMessages[0]),
            Frame("Content-Length: {0}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", ContentLengthMessages[1]),
            Frame("Content-Type: application/json;charset=\"UTF8\"\r\nX-Trace: a:b c\r\ncontent-LENGTH:\t 000{0} \r\n\r\n", ContentLengthMessages[2]),
            Frame("CONTENT-LENGTH:{0}\r\n\r\n", ContentLengthMessages[3]),
            Frame("Content-Length: {0}\r\nContent-Type: application/json\r\n\r\n", ContentLengthMessages[4])),
        ContentLengthMessages);

    public static TheoryData<string> Names => ["newline", "content-length"];

    public static FramingSample Get(string name) => name == Newline.Name ? Newline : ContentLength;

    /// <summary>The offset just past each message's frame, as a framer reading the whole stream at once consumes it.</summary>
    public int[] FrameEnds()
    {
        var ends = new List<int>();
        var buffer = new ReadOnlySequence<byte>(Stream);
        var framer = CreateFramer();
        while (framer.TryReadMessage(ref buffer, out _))
        {
            ends.Add(Stream.Length - (int)buffer.Length);
        }

        Assert.Equal(Expected.Length, ends.Count);
        return [.. ends];
    }

    public static byte[] Frame(string header, string body)
    {
        var bytes = Encoding.UTF8.GetBytes(body);
        return Concat(Encoding.ASCII.GetBytes(string.Format(CultureInfo.InvariantCulture, header, bytes.Length)), bytes);
    }

    public static byte[] Concat(params byte[][] parts) => [.. parts.SelectMany(part => part)];

    public override string ToString() => Name;
}
