using System.IO.Pipelines;

namespace JsonRpc.Core.Tests;

/// <summary>The converter inside System.Text.Json: every way the serializer can hand it a reader.</summary>
public class ConverterTests
{
    private const string Request = """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}""";
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    [Fact]
    public void Converter_FastPath_IsAvailableOnThisRuntime()
    {
        // Reading in place needs Utf8JsonReader's private fields; if a runtime renames them this fails loudly
        // (the converter would still be correct, through its copying path, but slower).
        Assert.True(Utf8JsonReaderAccess.IsAvailable);
    }

    [Fact]
    public async Task DeserializeAsyncEnumerable_MessagesFedThroughPipe_ReadsEach()
    {
        // The array's elements reach the converter on a multi-segment reader that is not on its final block.
        var messages = Enumerable.Range(1, 5).Select(i => Request.Replace("\"id\":1", $"\"id\":{i}", StringComparison.Ordinal));
        var bytes = Encoding.UTF8.GetBytes("[" + string.Join(",", messages) + "]");
        var pipe = new Pipe(new PipeOptions(minimumSegmentSize: 16, useSynchronizationContext: false));
        var feeding = Feed(pipe.Writer, bytes);

        var ids = new List<long>();
        await foreach (var message in JsonSerializer.DeserializeAsyncEnumerable(pipe.Reader, JsonRpcJsonContext.Default.JsonRpcMessage).WithCancellation(new CancellationTokenSource(Timeout).Token))
        {
            var request = Assert.IsType<JsonRpcRequest>(message);
            Assert.Equal("[42,23]", request.Params.ToString());
            Assert.True(request.Id.TryGetInt64(out var id));
            ids.Add(id);
        }

        await feeding.WaitAsync(Timeout);
        Assert.Equal([1L, 2, 3, 4, 5], ids);
    }

    [Fact]
    public async Task DeserializeAsyncEnumerable_TopLevelValues_ReadsEachMessage()
    {
        var bytes = Encoding.UTF8.GetBytes(Request + "\n" + """{"jsonrpc":"2.0","method":"ping"}""" + "\n");
        using var stream = new MemoryStream(bytes);
        var kinds = new List<JsonRpcMessageKind>();
        await foreach (var message in JsonSerializer.DeserializeAsyncEnumerable(stream, JsonRpcJsonContext.Default.JsonRpcMessage, topLevelValues: true).WithCancellation(new CancellationTokenSource(Timeout).Token))
        {
            kinds.Add(message!.Kind);
        }

        Assert.Equal([JsonRpcMessageKind.Request, JsonRpcMessageKind.Notification], kinds);
    }

    [Theory]
    [InlineData(Request + " x")]
    [InlineData(Request + "}")]
    [InlineData(Request + " " + Request)]
    [InlineData("""{"jsonrpc":"1.0","id":1,"method":"m"} x""")]
    public void Deserialize_GarbageAfterMessage_IsParseError(string json)
    {
        // The converter checks what follows a message that is the whole input, so the serializer's own check (a
        // plain JsonException) never fires, and "not JSON" wins over "not a valid message".
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize(json, JsonRpcJsonContext.Default.JsonRpcMessage));
        Assert.Equal(JsonRpcErrorCodes.ParseError, ex.ErrorCode);
        Assert.True(ex.Id.IsNone);
    }

    [Fact]
    public void Deserialize_WhitespaceAfterMessage_IsAccepted()
    {
        var message = JsonSerializer.Deserialize(Request + " \r\n\t", JsonRpcJsonContext.Default.JsonRpcMessage);
        Assert.IsType<JsonRpcRequest>(message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("   ")]
    public void Deserialize_NoValueAtAll_IsTheSerializersJsonException(string json)
    {
        // The serializer refuses input without a token before any converter runs: documented on the converter.
        var ex = Assert.ThrowsAny<JsonException>(() => JsonSerializer.Deserialize(json, JsonRpcJsonContext.Default.JsonRpcMessage));
        Assert.IsNotType<JsonRpcProtocolException>(ex);
    }

    [Fact]
    public void Deserialize_RefReaderWithSyntaxError_IsTheSerializersJsonException()
    {
        // Deserialize(ref Utf8JsonReader) scopes the value (checking its syntax) before it calls the converter.
        var reader = new Utf8JsonReader("""{"jsonrpc":"2.0","method":"m",}"""u8);
        try
        {
            JsonSerializer.Deserialize(ref reader, JsonRpcJsonContext.Default.JsonRpcMessage);
            Assert.Fail("A syntax error was accepted.");
        }
        catch (JsonException ex)
        {
            Assert.IsNotType<JsonRpcProtocolException>(ex);
        }
    }

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","method":"m","params":[1,2,]}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m",}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m" /* c */}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m","params":[1 // c""" + "\n]}")]
    public void Deserialize_LenientOptions_MessageIsStillReadStrictly(string json)
    {
        // Comments and trailing commas are not JSON; kept in params they would be sent on to peers.
        var options = new JsonSerializerOptions { ReadCommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize<JsonRpcMessage>(json, options));
        Assert.Equal(JsonRpcErrorCodes.ParseError, ex.ErrorCode);
    }

    [Fact]
    public void Deserialize_LenientOptionsAndStrictMessage_Reads()
    {
        var options = new JsonSerializerOptions { ReadCommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };
        var request = Assert.IsType<JsonRpcRequest>(JsonSerializer.Deserialize<JsonRpcMessage>(Request, options));
        Assert.Equal("[42,23]", request.Params.ToString());
    }

    [Fact]
    public void Deserialize_SerializerMaxDepthAboveReaderLimit_ReadsOnEveryPath()
    {
        // System.Text.Json takes any MaxDepth; JsonRpcReaderOptions caps its own at 4096. The converter's copying paths
        // (a multi-segment reader, lenient reader options) must honour the serializer's setting as the in-place path
        // does, not turn it into an ArgumentOutOfRangeException for every message.
        var depth = JsonRpcReaderOptions.MaxDepthLimit + 100;
        var deep = Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","id":1,"method":"m","params":""" + new string('[', depth - 50) + new string(']', depth - 50) + "}");
        foreach (var path in MessageReading.AllPaths.Where(MessageReading.IsSerializer))
        {
            Assert.Equal("subtract", Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, Encoding.UTF8.GetBytes(Request), depth)).Method);
            Assert.Equal(deep.Length - 47, Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, deep, depth)).Params.Span.Length);
        }

        var lenient = new JsonSerializerOptions { MaxDepth = depth, AllowTrailingCommas = true };
        Assert.IsType<JsonRpcRequest>(JsonSerializer.Deserialize<JsonRpcMessage>(Request, lenient));
        Assert.IsType<JsonRpcRequest>(JsonSerializer.Deserialize<JsonRpcMessage>(deep, lenient));
    }

    [Fact]
    public void Deserialize_MessageInsideAnotherType_ReadsAndLeavesTheRest()
    {
        var json = """{"first":""" + Request + ""","second":[""" + Request + """, {"jsonrpc":"2.0","method":"n"}],"after":7}""";
        var envelope = JsonSerializer.Deserialize(json, ConverterTestContext.Default.Envelope)!;
        Assert.IsType<JsonRpcRequest>(envelope.First);
        Assert.Equal(2, envelope.Second!.Count);
        Assert.IsType<JsonRpcNotification>(envelope.Second[1]);
        Assert.Equal(7, envelope.After);
    }

    [Fact]
    public void Deserialize_InvalidMessageInsideAnotherType_IsInvalidRequestWithId()
    {
        var json = """{"first":{"jsonrpc":"2.0","id":"a","method":5},"after":7}""";
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize(json, ConverterTestContext.Default.Envelope));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ex.ErrorCode);
        Assert.Equal(new RequestId("a"), ex.Id);
    }

    [Fact]
    public void Deserialize_TypedConverter_OtherKindIsInvalidRequestWithId()
    {
        Assert.IsType<JsonRpcRequest>(JsonSerializer.Deserialize(Request, JsonRpcJsonContext.Default.JsonRpcRequest));
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize("""{"jsonrpc":"2.0","id":9,"result":1}""", JsonRpcJsonContext.Default.JsonRpcRequest));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ex.ErrorCode);
        Assert.Equal(new RequestId(9), ex.Id);
        Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize(Request, JsonRpcJsonContext.Default.JsonRpcBatch));
    }

    [Fact]
    public void Deserialize_Null_IsInvalidRequest()
    {
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize("null", JsonRpcJsonContext.Default.JsonRpcMessage));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ex.ErrorCode);
    }

    [Fact]
    public void Serialize_WithIndentedOptions_WritesParamsBytesUntouched()
    {
        var message = JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":"m","params":{"a" : [1,  2]}}""");
        var json = JsonSerializer.Serialize(message, new JsonSerializerOptions { WriteIndented = true });
        Assert.Contains("""{"a" : [1,  2]}""", json, StringComparison.Ordinal);
        Assert.IsType<JsonRpcNotification>(JsonRpcMessage.Parse(json));
    }

    private static async Task Feed(PipeWriter writer, byte[] bytes)
    {
        try
        {
            for (var start = 0; start < bytes.Length; start += 5)
            {
                await Task.Yield();
                await writer.WriteAsync(bytes.AsMemory(start, Math.Min(5, bytes.Length - start)));
            }
        }
        finally
        {
            await writer.CompleteAsync();
        }
    }
}
