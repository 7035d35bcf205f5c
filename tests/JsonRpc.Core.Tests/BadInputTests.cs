namespace JsonRpc.Core.Tests;

/// <summary>
/// Every rule of "What bad input gets": the code, and the id whenever it could be read, wherever the id stands
/// (before or after the bad member), on every read path and through the reader.
/// </summary>
public class BadInputTests
{
    private const int Parse = JsonRpcErrorCodes.ParseError;
    private const int Invalid = JsonRpcErrorCodes.InvalidRequest;

    // ---- Parse error -32700: not JSON, truncated, invalid UTF-8, too deep. The id is never trusted. ----

    [Theory]
    [InlineData("""{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m",}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":'m'}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m"} {}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m"}}""")]
    [InlineData("""{"jsonrpc":"2.0","id":01,"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":NaN,"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m" /* comment */}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"tab	inside"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"\x"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"jsonrpc":"2.0","method":"m"]""")]
    [InlineData("")]
    [InlineData(" \r\n ")]
    public void Read_NotJson_IsParseErrorWithoutId(string json) => Refusal.Assert(json, Parse, RequestId.None);

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","id":"7","method":"subtract","params":{"a":[1,2.5,"x"],"b":null}}""")]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b","params":[true]}]""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m","data":{"x":"é"}}}""")]
    public void Read_EveryPrefixOfValidMessage_IsParseError(string json)
    {
        var bytes = Encoding.UTF8.GetBytes(json);
        Assert.True(JsonRpcMessageReader.TryRead(bytes, out _, out _));
        for (var length = 0; length < bytes.Length; length++)
        {
            if (!Utf8Prefix(bytes, length))
            {
                continue; // cut inside a multi-byte character: covered by the invalid UTF-8 tests
            }

            Refusal.Assert(bytes[..length], Parse, RequestId.None);
        }
    }

    public static TheoryData<byte[]> InvalidUtf8Messages()
    {
        var data = new TheoryData<byte[]>();
        byte[][] bad = [[0xC3], [0xFF], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]];
        foreach (var sequence in bad)
        {
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m", sequence, "\"}"));                 // in the method
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":\"a", sequence, "\",\"method\":\"m\"}"));           // in a string id
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[\"", sequence, "\"]}")); // in params
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x", sequence, "\":1}"));          // in a member name
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"u\":{\"v\":\"", sequence, "\"}}"));    // in an unknown member
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"", sequence, "\"}"));                 // in a result
            data.Add(Message("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"", sequence, "\"}}")); // in error.message
            data.Add(Message("""{"jsonrpc":"2.0","id":1,"method":"m"}""", sequence, string.Empty));        // after the value
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(InvalidUtf8Messages))]
    public void Read_InvalidUtf8_IsParseError(byte[] message) => Refusal.Assert(message, Parse, RequestId.None);

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"\ud800"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":"\udc00","method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m","params":["\ud83d\u0041"]}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m","params":{"\ude00":1}}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m","params":["\ud83d"]}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m","params":["\ud83d\\ude00"]}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"result":"a\udbff"}""")]
    public void Read_LoneSurrogateEscape_IsParseError(string json) => Refusal.Assert(json, Parse, RequestId.None);

    [Fact]
    public void Read_SurrogatePairEscape_IsAccepted()
    {
        var message = JsonRpcMessage.Parse("""{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"\ud83d\ude00"}""");
        var request = Assert.IsType<JsonRpcRequest>(message);
        Assert.Equal("\U0001F600", request.Method);
        Assert.Equal(new RequestId("\U0001F600"), request.Id);
    }

    [Fact]
    public void ParseString_LoneSurrogateInDotNetString_IsParseError()
    {
        // A .NET string can hold what UTF-8 cannot; it is refused, not silently replaced with U+FFFD.
        var json = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\ud800\"}";
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonRpcMessage.Parse(json));
        Assert.Equal(Parse, ex.ErrorCode);
    }

    [Fact]
    public void Read_ByteOrderMark_IsParseErrorForOurEntryPoints()
    {
        // RFC 8259 section 8.1: senders MUST NOT add a BOM, parsers MAY ignore it. Ours refuse it; the serializer's
        // stream and pipe readers skip it before the converter sees anything, which is their documented behaviour.
        var bytes = Encoding.UTF8.GetBytes("\uFEFF{\"jsonrpc\":\"2.0\",\"method\":\"m\"}");
        Assert.False(JsonRpcMessageReader.TryRead(bytes, out _, out var error));
        Assert.Equal(Parse, error.Code);
        Assert.Equal(Parse, Assert.Throws<JsonRpcProtocolException>(() => JsonRpcMessage.Parse(bytes.AsMemory())).ErrorCode);
        Assert.Equal(Parse, Assert.Throws<JsonRpcProtocolException>(() => JsonRpcMessage.Parse(Encoding.UTF8.GetString(bytes))).ErrorCode);
        Assert.ThrowsAny<System.Text.Json.JsonException>(() => System.Text.Json.JsonSerializer.Deserialize(bytes, JsonRpcJsonContext.Default.JsonRpcMessage));
    }

    [Fact]
    public void Read_DefaultDepthLimit_Is64()
    {
        Assert.Equal(64, JsonRpcReaderOptions.DefaultMaxDepth);
        Assert.Equal(64, JsonRpcReaderOptions.Default.MaxDepth);
        foreach (var path in MessageReading.AllPaths)
        {
            Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, Nested(64)));
        }

        Assert.True(JsonRpcMessageReader.TryRead(Nested(64), out _, out _));
        Refusal.Assert(Nested(65), Parse, RequestId.None);
        Refusal.Assert(Nested(100_000), Parse, RequestId.None);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(200)]
    public void Read_ConfiguredDepthLimit_IsEnforced(int maxDepth)
    {
        foreach (var path in MessageReading.AllPaths)
        {
            Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, Nested(maxDepth), maxDepth));
        }

        Assert.True(JsonRpcMessageReader.TryRead(Nested(maxDepth), maxDepth, out _, out _));
        Refusal.Assert(Nested(maxDepth + 1), Parse, RequestId.None, maxDepth);
    }

    [Fact]
    public void Read_DepthLimitOutOfRange_ThrowsArgumentOutOfRange()
    {
        var message = Nested(2);
        Assert.Throws<ArgumentOutOfRangeException>(() => JsonRpcMessageReader.TryRead(message, 0, out _, out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => JsonRpcMessageReader.TryRead(message, -1, out _, out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => JsonRpcMessageReader.TryRead(message, JsonRpcReaderOptions.MaxDepthLimit + 1, out _, out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonRpcReaderOptions { MaxDepth = 0 });
    }

    // ---- Invalid Request -32600: JSON that is not a valid message. The id is carried when it could be read. ----

    public static TheoryData<string, string> InvalidMembers() => new()
    {
        // "jsonrpc" missing or not exactly "2.0"
        { "missing jsonrpc", """ "method":"m" """ },
        { "jsonrpc 1.0", """ "jsonrpc":"1.0","method":"m" """ },
        { "jsonrpc number", """ "jsonrpc":2.0,"method":"m" """ },
        { "jsonrpc with space", """ "jsonrpc":"2.0 ","method":"m" """ },
        { "jsonrpc null", """ "jsonrpc":null,"method":"m" """ },
        { "jsonrpc 2", """ "jsonrpc":"2","method":"m" """ },
        // method not a string
        { "method number", """ "jsonrpc":"2.0","method":1 """ },
        { "method null", """ "jsonrpc":"2.0","method":null """ },
        { "method array", """ "jsonrpc":"2.0","method":["m"] """ },
        { "method object", """ "jsonrpc":"2.0","method":{} """ },
        // params present but not an object or array
        { "params string", """ "jsonrpc":"2.0","method":"m","params":"bar" """ },
        { "params number", """ "jsonrpc":"2.0","method":"m","params":1 """ },
        { "params null", """ "jsonrpc":"2.0","method":"m","params":null """ },
        { "params true", """ "jsonrpc":"2.0","method":"m","params":true """ },
        // a response with both or neither of result and error
        { "result and error", """ "jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"} """ },
        { "neither result nor error", """ "jsonrpc":"2.0" """ },
        { "method and result", """ "jsonrpc":"2.0","method":"m","result":1 """ },
        { "method and error", """ "jsonrpc":"2.0","method":"m","error":{"code":1,"message":"m"} """ },
        // an error without an integer code or a string message
        { "error not object", """ "jsonrpc":"2.0","error":"oops" """ },
        { "error null", """ "jsonrpc":"2.0","error":null """ },
        { "error without code", """ "jsonrpc":"2.0","error":{"message":"m"} """ },
        { "error code string", """ "jsonrpc":"2.0","error":{"code":"1","message":"m"} """ },
        { "error code fraction", """ "jsonrpc":"2.0","error":{"code":1.5,"message":"m"} """ },
        { "error code exponent", """ "jsonrpc":"2.0","error":{"code":1e2,"message":"m"} """ },
        { "error code beyond int32", """ "jsonrpc":"2.0","error":{"code":2147483648,"message":"m"} """ },
        { "error code null", """ "jsonrpc":"2.0","error":{"code":null,"message":"m"} """ },
        { "error without message", """ "jsonrpc":"2.0","error":{"code":1} """ },
        { "error message number", """ "jsonrpc":"2.0","error":{"code":1,"message":1} """ },
        { "error message null", """ "jsonrpc":"2.0","error":{"code":1,"message":null} """ },
        // a member name that appears twice
        { "jsonrpc twice", """ "jsonrpc":"2.0","jsonrpc":"2.0","method":"m" """ },
        { "method twice", """ "jsonrpc":"2.0","method":"a","method":"b" """ },
        { "method twice escaped", """ "jsonrpc":"2.0","method":"a","\u006dethod":"b" """ },
        { "params twice", """ "jsonrpc":"2.0","method":"m","params":[1],"params":[2] """ },
        { "unknown member twice", """ "jsonrpc":"2.0","method":"m","x":1,"x":2 """ },
        { "result twice", """ "jsonrpc":"2.0","result":1,"result":2 """ },
        { "error code twice", """ "jsonrpc":"2.0","error":{"code":1,"code":2,"message":"m"} """ },
        { "twice inside params", """ "jsonrpc":"2.0","method":"m","params":{"a":1,"b":{"c":1,"c":2}} """ },
        { "twice inside result", """ "jsonrpc":"2.0","result":[{"a":1,"a":1}] """ },
        { "twice inside error data", """ "jsonrpc":"2.0","error":{"code":1,"message":"m","data":{"a":1,"\u0061":1}} """ },
        { "twice inside unknown member", """ "jsonrpc":"2.0","method":"m","x":{"y":1,"y":1} """ },
    };

    [Theory]
    [MemberData(nameof(InvalidMembers))]
    public void Read_InvalidMessageWithIdBefore_IsInvalidRequestCarryingId(string rule, string members)
    {
        _ = rule;
        Refusal.Assert("{\"id\":7," + members + "}", Invalid, 7);
        Refusal.Assert("{\"id\":\"x\\\"y\"," + members + "}", Invalid, "x\"y");
    }

    [Theory]
    [MemberData(nameof(InvalidMembers))]
    public void Read_InvalidMessageWithIdAfter_IsInvalidRequestCarryingId(string rule, string members)
    {
        _ = rule;
        Refusal.Assert("{" + members + ",\"id\":123456789012345678901234567890}", Invalid, RequestId.FromNumberText("123456789012345678901234567890"));
        Refusal.Assert("{" + members + ",\"id\":null}", Invalid, RequestId.Null);
    }

    [Theory]
    [MemberData(nameof(InvalidMembers))]
    public void Read_InvalidMessageWithoutId_IsInvalidRequestWithNullAnswerId(string rule, string members)
    {
        _ = rule;
        Refusal.Assert("{" + members + "}", Invalid, RequestId.None);
    }

    [Theory]
    [InlineData("{}")]
    [InlineData("[]")]
    [InlineData("true")]
    [InlineData("null")]
    [InlineData("1")]
    [InlineData("\"a\"")]
    public void Read_NotAMessageObject_IsInvalidRequest(string json) => Refusal.Assert(json, Invalid, RequestId.None);

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","id":{},"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":[1],"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":true,"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m","id":false}""")]
    public void Read_IdNotStringNumberOrNull_IsInvalidRequestWithoutId(string json) => Refusal.Assert(json, Invalid, RequestId.None);

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"method":"m","id":1}""")]
    [InlineData("""{"jsonrpc":"2.0","id":"a","\u0069d":"b","method":"m"}""")]
    [InlineData("""{"jsonrpc":"2.0","id":1,"id":{},"method":"m"}""")]
    public void Read_IdTwice_IsInvalidRequestWithoutId(string json)
    {
        // Which of two ids to echo is exactly the ambiguity RFC 7493 forbids: the answer gets the null id.
        Refusal.Assert(json, Invalid, RequestId.None);
    }

    [Fact]
    public void Read_ResponseWithoutId_IsInvalidRequest()
    {
        Refusal.Assert("""{"jsonrpc":"2.0","result":1}""", Invalid, RequestId.None);
        Refusal.Assert("""{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}""", Invalid, RequestId.None);
    }

    [Fact]
    public void Read_SyntaxErrorAfterInvalidMember_ParseErrorWins()
    {
        // The spec answers Parse error for any text that is not JSON, even if a rule was broken before the syntax error.
        Refusal.Assert("""{"jsonrpc":"1.0","id":1,"method":"m",""", Parse, RequestId.None);
        Refusal.Assert("""{"jsonrpc":"2.0","id":1,"method":5,"params":["\ud800"]}""", Parse, RequestId.None);
        Refusal.Assert("""{"jsonrpc":"2.0","id":1,"method":"a","method":"b"} x""", Parse, RequestId.None);
    }

    [Fact]
    public void Read_UnknownMembersAndAnyOrder_AreAccepted()
    {
        var json = """{"params":{"x":[1]},"extra":{"deep":[{"a":"\u0041"}]},"method":"m","id":"9","jsonrpc":"2.0","other":null}""";
        foreach (var path in MessageReading.AllPaths)
        {
            var request = Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, Encoding.UTF8.GetBytes(json)));
            Assert.Equal("m", request.Method);
            Assert.Equal(new RequestId("9"), request.Id);
            Assert.Equal("""{"x":[1]}""", request.Params.ToString());
        }
    }

    [Fact]
    public void Read_EscapedMemberNamesAndVersion_AreUnderstood()
    {
        var json = """{"\u006a\u0073onrpc":"2\u002e0","\u0069d":1,"met\u0068od":"a\/b","par\u0061ms":[]}""";
        foreach (var path in MessageReading.AllPaths)
        {
            var request = Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, Encoding.UTF8.GetBytes(json)));
            Assert.Equal("a/b", request.Method);
            Assert.Equal(new RequestId(1), request.Id);
            Assert.Equal("[]", request.Params.ToString());
        }
    }

    private static byte[] Nested(int depth)
    {
        // The message object is depth 1; params and the arrays inside it make up the rest.
        var prefix = """{"jsonrpc":"2.0","id":1,"method":"m","params":""";
        var inner = depth - 1;
        return Encoding.UTF8.GetBytes(prefix + new string('[', inner) + new string(']', inner) + "}");
    }

    private static byte[] Message(string before, byte[] bytes, string after)
        => [.. Encoding.UTF8.GetBytes(before), .. bytes, .. Encoding.UTF8.GetBytes(after)];

    private static bool Utf8Prefix(byte[] bytes, int length) => length == bytes.Length || (bytes[length] & 0xC0) != 0x80;
}
