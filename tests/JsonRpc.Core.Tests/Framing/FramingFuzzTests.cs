using System.Buffers;
using System.Text;
using JsonRpc.Framing;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>
/// Random mixes of valid frames, broken headers, stray line breaks and binary noise: whatever the input, a framer throws
/// nothing but <see cref="JsonRpcFramingException"/>, and how the input is cut into reads changes nothing.
/// </summary>
public class FramingFuzzTests
{
    private static readonly string[] Pieces =
    [
        "Content-Length: 5\r\n", "Content-Length: 0\r\n", "content-length:70\r\n", "Content-Length: 99999\r\n", "Content-Length: x\r\n",
        "Content-Type: application/json; charset=utf-8\r\n", "Content-Type: a; charset=latin1\r\n", "X-A: b\r\n", "X-A b\r\n",
        "\r\n", "\n", "\r", " ", "\t", ":", "{\"jsonrpc\":\"2.0\",\"method\":\"m\"}", "[1,2]", "[1]\n", "é", "\0",
        "Content-Length: 5\r\n\r\n[1,2]", "Content-Length: 3\r\n\r\n[1]",
    ];

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public void TryReadMessage_RandomInput_SameOutcomeForEverySplitAndOnlyFramingErrors(string framing)
    {
        var random = new Random(framing.Length * 7919);
        IJsonRpcFramer Create() => framing == "newline" ? new NewlineDelimitedFramer(64) : new ContentLengthFramer(64);
        for (var round = 0; round < 300; round++)
        {
            var input = RandomInput(random);
            var expected = Outcome(Create(), input, [input.Length]);
            for (var split = 0; split < 5; split++)
            {
                var sizes = Enumerable.Range(0, 20).Select(_ => random.Next(1, 12)).ToArray();
                Assert.Equal(expected, Outcome(Create(), input, sizes));
            }

            Assert.Equal(expected, Outcome(Create(), input, [1]));
        }
    }

    private static byte[] RandomInput(Random random)
    {
        var bytes = new List<byte>();
        var count = random.Next(1, 30);
        for (var i = 0; i < count; i++)
        {
            if (random.Next(10) == 0)
            {
                var noise = new byte[random.Next(1, 80)];
                random.NextBytes(noise);
                bytes.AddRange(noise);
            }
            else
            {
                bytes.AddRange(Encoding.UTF8.GetBytes(Pieces[random.Next(Pieces.Length)]));
            }
        }

        return [.. bytes];
    }

    // The messages, then how it ended: the error's reason, or how many bytes were left unread.
    private static string Outcome(IJsonRpcFramer framer, byte[] input, int[] sizes)
    {
        var driver = new FramingDriver(framer);
        string end;
        try
        {
            driver.FeedAll(input, sizes);
            end = "left " + driver.Buffered;
        }
        catch (JsonRpcFramingException error)
        {
            end = "error " + error.Reason;
        }

        return string.Join("|", driver.Messages) + " => " + end;
    }
}
