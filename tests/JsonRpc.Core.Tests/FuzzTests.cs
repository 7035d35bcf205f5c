using Xunit.Abstractions;

namespace JsonRpc.Core.Tests;

/// <summary>
/// A bounded, reproducible fuzz run (fixed seed): mutated messages may only ever end in an answer (a message, or a
/// JsonRpcProtocolException / TryRead false), never another exception, and every entry point must agree.
/// </summary>
public class FuzzTests(ITestOutputHelper output)
{
    private const int Mutations = 20_000;

    private static readonly string[] Seeds =
    [
        """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}""",
        """{"jsonrpc":"2.0","id":"abc","method":"a.b","params":{"minuend":42,"subtrahend":23,"nested":{"x":[true,false,null]}}}""",
        """{"jsonrpc":"2.0","method":"notify","params":["\u00e9\ud83d\ude00","tab\t","\"q\""]}""",
        """{"jsonrpc":"2.0","id":-1.5e+3,"result":{"a":[1,2,{"b":"c"}],"d":-0.0}}""",
        """{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"why":"x"}}}""",
        """[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":2,"result":[]}]""",
        """{"params":[],"method":"m","id":123456789012345678901234567890,"jsonrpc":"2.0","x":{"y":[{}]}}""",
        "{\"jsonrpc\":\"2.0\",\"id\":\"é\",\"method\":\"ü\",\"params\":{\"ß\":\"€\"}}",
    ];

    private static readonly byte[][] Inserts =
    [
        "\""u8.ToArray(), "\\"u8.ToArray(), "{"u8.ToArray(), "}"u8.ToArray(), "["u8.ToArray(), "]"u8.ToArray(),
        ","u8.ToArray(), ":"u8.ToArray(), " "u8.ToArray(), "\\u"u8.ToArray(), "\\ud800"u8.ToArray(), "\\udc00"u8.ToArray(),
        "\"id\":7,"u8.ToArray(), "\"method\":\"x\","u8.ToArray(), "\"jsonrpc\":\"2.0\","u8.ToArray(), "null"u8.ToArray(),
        "1e"u8.ToArray(), "-"u8.ToArray(), "0"u8.ToArray(), "/*"u8.ToArray(), "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["u8.ToArray(),
        [0xC3], [0xFF], [0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], [0x00], [0x0A], [0xF0, 0x9F, 0x98],
    ];

    [Fact]
    public void ReadEverywhere_MutatedMessages_OnlyProtocolErrorsAndAllEntryPointsAgree()
    {
        var random = new Random(20_240_601);
        var seeds = Seeds.Select(Encoding.UTF8.GetBytes).ToArray();
        var accepted = 0;
        for (var i = 0; i < Mutations; i++)
        {
            var input = Mutate(random, seeds[random.Next(seeds.Length)]);
            try
            {
                if (Check(input))
                {
                    accepted++;
                }
            }
            catch (Exception ex) when (ex is not Xunit.Sdk.XunitException)
            {
                throw new Xunit.Sdk.XunitException($"Mutation {i} ({Convert.ToHexString(input)}) threw {ex}");
            }
        }

        output.WriteLine($"{accepted} of {Mutations} mutations were still valid messages.");

        // The run must exercise both outcomes, or it proves little.
        Assert.InRange(accepted, Mutations / 50, Mutations - (Mutations / 10));
    }

    private static bool Check(byte[] input)
    {
        var ok = JsonRpcMessageReader.TryRead(input, out var info, out var error);
        JsonRpcMessage? parsed = null;
        try
        {
            parsed = JsonRpcMessage.Parse(input.AsMemory());
            Assert.True(ok, $"Parse accepted what TryRead refused: {error.Detail}");
        }
        catch (JsonRpcProtocolException ex)
        {
            Assert.False(ok, $"TryRead accepted what Parse refused: {ex.Detail}");
            Assert.Equal(error.Code, ex.ErrorCode);
            Assert.Equal(info.GetId(input), ex.Id);
            Assert.True(ex.ErrorCode is JsonRpcErrorCodes.ParseError or JsonRpcErrorCodes.InvalidRequest);
            Assert.True(ex.ErrorCode == JsonRpcErrorCodes.InvalidRequest || ex.Id.IsNone);
        }

        var sequence = Read(() => JsonRpcMessage.Parse(Utf8Sequence.Split(input, 3)));
        Assert.Equal(ok, sequence.Message is not null);
        Assert.Equal(ok ? null : error.Code, sequence.Code);

        var serializer = Read(() => JsonSerializer.Deserialize(input, JsonRpcJsonContext.Default.JsonRpcMessage)!);
        if (serializer.Code is null && serializer.Message is null)
        {
            // The serializer's own refusal, before the converter ran: only when no JSON token starts the input.
            Assert.False(ok);
            Assert.Equal(JsonRpcErrorCodes.ParseError, error.Code);
        }
        else
        {
            Assert.Equal(ok, serializer.Message is not null);
            Assert.Equal(ok ? null : error.Code, serializer.Code);
        }

        if (parsed is not null)
        {
            Assert.Equal(info.Kind, parsed.Kind);
            MessageAssert.Same(parsed, sequence.Message!);
            MessageAssert.Same(parsed, serializer.Message!);
            RoundTrip(parsed);
        }

        return ok;
    }

    private static void RoundTrip(JsonRpcMessage message)
    {
        if (message is JsonRpcBatch batch && batch.Messages.Any(m => m is JsonRpcInvalidMessage))
        {
            // An invalid element is answered, not written: its answer must be writable.
            foreach (var element in batch.Messages.OfType<JsonRpcInvalidMessage>())
            {
                Assert.True(JsonRpcMessageReader.TryRead(element.ToErrorResponse().ToUtf8Bytes(), out _, out _));
            }

            return;
        }

        var written = message.ToUtf8Bytes();
        var again = JsonRpcMessage.Parse(written);
        MessageAssert.Same(message, again);
        Assert.Equal(written, again.ToUtf8Bytes());
    }

    private static (JsonRpcMessage? Message, int? Code) Read(Func<JsonRpcMessage> read)
    {
        try
        {
            return (read(), null);
        }
        catch (JsonRpcProtocolException ex)
        {
            return (null, ex.ErrorCode);
        }
        catch (JsonException ex) when (ex is not JsonRpcProtocolException)
        {
            return (null, null);
        }
    }

    private static byte[] Mutate(Random random, byte[] seed)
    {
        var bytes = new List<byte>(seed);
        var count = random.Next(1, 4);
        for (var m = 0; m < count && bytes.Count > 0; m++)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(6))
            {
                case 0: // flip to any byte
                    bytes[at] = (byte)random.Next(256);
                    break;
                case 1: // flip to a structural byte
                    bytes[at] = "\"\\{}[],: 0-"u8[random.Next(11)];
                    break;
                case 2: // truncate
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                case 3: // insert something interesting
                    bytes.InsertRange(at, Inserts[random.Next(Inserts.Length)]);
                    break;
                case 4: // delete a run
                    bytes.RemoveRange(at, Math.Min(bytes.Count - at, random.Next(1, 6)));
                    break;
                default: // repeat a run (often a member, so a duplicate name)
                    var length = Math.Min(bytes.Count - at, random.Next(1, 24));
                    bytes.InsertRange(at, bytes.GetRange(at, length));
                    break;
            }
        }

        return [.. bytes];
    }
}
