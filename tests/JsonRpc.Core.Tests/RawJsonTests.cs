namespace JsonRpc.Core.Tests;

public class RawJsonTests
{
    [Theory]
    [InlineData("{}", JsonValueKind.Object)]
    [InlineData(" \t\r\n[1]", JsonValueKind.Array)]
    [InlineData("\"s\"", JsonValueKind.String)]
    [InlineData("-1.5e3", JsonValueKind.Number)]
    [InlineData("true", JsonValueKind.True)]
    [InlineData("false", JsonValueKind.False)]
    [InlineData("null", JsonValueKind.Null)]
    public void ValueKind_AnyValue_IsReadFromFirstByte(string json, JsonValueKind kind)
    {
        Assert.Equal(kind, RawJson.Parse(json).ValueKind);
        Assert.Equal(kind, RawJson.FromTrustedUtf8(Encoding.UTF8.GetBytes(json)).ValueKind); // leading whitespace skipped
    }

    [Fact]
    public void Absent_IsEmptyAndUndefinedAndDiffersFromNull()
    {
        Assert.True(RawJson.Absent.IsEmpty);
        Assert.True(default(RawJson).IsEmpty);
        Assert.Equal(JsonValueKind.Undefined, RawJson.Absent.ValueKind);
        Assert.NotEqual(RawJson.Null, RawJson.Absent);
        Assert.False(RawJson.Null.IsEmpty);
        Assert.Equal("null", RawJson.Null.ToString());
        Assert.Equal("[]", RawJson.EmptyArray.ToString());
        Assert.Equal("{}", RawJson.EmptyObject.ToString());
        Assert.Equal(string.Empty, RawJson.Absent.ToString());
    }

    [Fact]
    public void Absent_DeserializeOrWrite_ThrowsInvalidOperation()
    {
        Assert.Throws<InvalidOperationException>(() => RawJson.Absent.Deserialize(TestJsonContext.Default.Int32));
        using var writer = new Utf8JsonWriter(new MemoryStream());
        Assert.Throws<InvalidOperationException>(() => RawJson.Absent.WriteTo(writer));
    }

    [Fact]
    public void FromUtf8_ValueWithWhitespaceAround_KeepsOnlyTheValueWithoutCopying()
    {
        var buffer = Encoding.UTF8.GetBytes("  {\"a\" : [1, 2]} \n");
        var raw = RawJson.FromUtf8(buffer);
        Assert.Equal("{\"a\" : [1, 2]}", raw.ToString());
        Assert.True(raw.Utf8.Span.Overlaps(buffer)); // a slice of the caller's memory
        Assert.Equal(raw, RawJson.Parse("{\"a\" : [1, 2]}"));
        Assert.Equal(raw.GetHashCode(), RawJson.Parse("{\"a\" : [1, 2]}").GetHashCode());
    }

    [Theory]
    [InlineData("", JsonRpcErrorCodes.ParseError)]
    [InlineData("  ", JsonRpcErrorCodes.ParseError)]
    [InlineData("1 2", JsonRpcErrorCodes.ParseError)]
    [InlineData("[1,]", JsonRpcErrorCodes.ParseError)]
    [InlineData("{\"a\":1,\"a\":2}", JsonRpcErrorCodes.InvalidRequest)]
    [InlineData("\"\\ud800\"", JsonRpcErrorCodes.ParseError)]
    public void Parse_NotOneStrictValue_ThrowsProtocolException(string json, int code)
        => Assert.Equal(code, Assert.Throws<JsonRpcProtocolException>(() => RawJson.Parse(json)).ErrorCode);

    [Fact]
    public void Parse_StringWithLoneSurrogate_IsParseErrorNotReplacementCharacter()
    {
        var ex = Assert.Throws<JsonRpcProtocolException>(() => RawJson.Parse("\"\ud800\""));
        Assert.Equal(JsonRpcErrorCodes.ParseError, ex.ErrorCode);
    }

    [Fact]
    public void FromUtf8_InvalidUtf8_IsParseError()
    {
        var ex = Assert.Throws<JsonRpcProtocolException>(() => RawJson.FromUtf8(new byte[] { (byte)'"', 0xC3, (byte)'"' }));
        Assert.Equal(JsonRpcErrorCodes.ParseError, ex.ErrorCode);
    }

    [Fact]
    public void FromUtf8_MaxDepth_IsEnforcedAndValidated()
    {
        var deep = Encoding.UTF8.GetBytes(new string('[', 3) + new string(']', 3));
        Assert.Equal("[[[]]]", RawJson.FromUtf8(deep, maxDepth: 3).ToString());
        Assert.Equal(JsonRpcErrorCodes.ParseError, Assert.Throws<JsonRpcProtocolException>(() => RawJson.FromUtf8(deep, maxDepth: 2)).ErrorCode);
        Assert.Throws<ArgumentOutOfRangeException>(() => RawJson.FromUtf8(deep, maxDepth: 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => RawJson.FromUtf8(deep, maxDepth: -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => RawJson.FromUtf8(deep, maxDepth: JsonRpcReaderOptions.MaxDepthLimit + 1));
    }

    [Fact]
    public void FromAndDeserialize_SourceGenerated_RoundTrip()
    {
        var raw = RawJson.From(new Dictionary<string, int> { ["minuend"] = 42 }, TestJsonContext.Default.DictionaryStringInt32);
        Assert.Equal("{\"minuend\":42}", raw.ToString());
        Assert.Equal(42, raw.Deserialize(TestJsonContext.Default.DictionaryStringInt32)!["minuend"]);
        Assert.Equal(new[] { 1, 2 }, RawJson.Parse("[1,2]").Deserialize<int[]>());
    }

    [Fact]
    public void Detach_SliceOfCallersBuffer_CopiesBytes()
    {
        var buffer = Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","method":"m","params":[1]}""");
        var notification = Assert.IsType<JsonRpcNotification>(JsonRpcMessage.Parse(buffer.AsMemory()));
        var detached = notification.Params.Detach();
        Assert.True(notification.Params.Utf8.Span.Overlaps(buffer));
        Assert.False(detached.Utf8.Span.Overlaps(buffer));
        buffer.AsSpan().Clear();
        Assert.Equal("[1]", detached.ToString());
        Assert.True(RawJson.Absent.Detach().IsEmpty);
    }

    [Fact]
    public void WriteTo_WritesBytesUntouched()
    {
        var raw = RawJson.Parse("{ \"b\" :1 , \"a\":\"\\u00e9\" }");
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            raw.WriteTo(writer);
        }

        Assert.Equal(raw.Span, buffer.WrittenSpan);
    }
}
