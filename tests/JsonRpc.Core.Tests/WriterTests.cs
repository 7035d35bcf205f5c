using System.Buffers;

namespace JsonRpc.Core.Tests;

public class WriterTests
{
    public static TheoryData<string, string> Expected() => new()
    {
        { "request", """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}""" },
        { "request without params", """{"jsonrpc":"2.0","id":"a","method":"m"}""" },
        { "request null id", """{"jsonrpc":"2.0","id":null,"method":"m","params":{}}""" },
        { "notification", """{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}""" },
        { "notification without params", """{"jsonrpc":"2.0","method":"foobar"}""" },
        { "response", """{"jsonrpc":"2.0","id":1,"result":19}""" },
        { "response null result", """{"jsonrpc":"2.0","id":"x","result":null}""" },
        { "error", """{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found"}}""" },
        { "error with data", """{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"busy","data":{"retry":5}}}""" },
        { "batch", """[{"jsonrpc":"2.0","id":1,"result":7},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}]""" },
    };

    [Theory]
    [MemberData(nameof(Expected))]
    public void Write_EveryKind_WritesExpectedBytes(string kind, string expected)
    {
        _ = kind;
        var message = Build(expected);
        var buffer = new ArrayBufferWriter<byte>(1);
        JsonRpcMessageWriter.Write(buffer, message);
        Assert.Equal(expected, Encoding.UTF8.GetString(buffer.WrittenSpan));
        Assert.Equal(expected, Encoding.UTF8.GetString(message.ToUtf8Bytes()));
        Assert.Equal(expected, message.ToString());
        Assert.Equal(expected, JsonSerializer.Serialize(message, JsonRpcJsonContext.Default.JsonRpcMessage));
    }

    [Fact]
    public void Write_RawValues_AreWrittenBackUntouched()
    {
        // Whitespace, escapes, number spellings and member order exactly as the peer sent them.
        const string Params = """{ "b" : 1.0E+2 , "a" : [ "\u00e9" , "\/" , -0 ] }""";
        const string Result = """  [1e400, "\ud83d\ude00", {"z":null,"a":true}]""";
        const string Data = """ "\t<&>" """;
        var request = (JsonRpcRequest)JsonRpcMessage.Parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":" + Params + "}");
        var response = (JsonRpcResponse)JsonRpcMessage.Parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + Result + "}");
        var error = (JsonRpcError)JsonRpcMessage.Parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\",\"data\":" + Data + "}}");

        Assert.Equal(Params, request.Params.ToString());
        Assert.Equal(Result.Trim(), response.Result.ToString());
        Assert.Equal(Data.Trim(), error.Error.Data.ToString());
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":" + Params + "}", request.ToString());
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + Result.Trim() + "}", response.ToString());
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\",\"data\":" + Data.Trim() + "}}", error.ToString());

        // The serializer's own writer (default, HTML-safe encoder) does not touch them either.
        Assert.Contains(Params, JsonSerializer.Serialize<JsonRpcMessage>(request), StringComparison.Ordinal);
        Assert.Contains(Data.Trim(), JsonSerializer.Serialize<JsonRpcMessage>(error), StringComparison.Ordinal);
    }

    [Fact]
    public void Write_TextMembers_AreEscapedOnlyAsJsonRequires()
    {
        var error = new JsonRpcError("é<&>", 5, "line\n\"quoted\" \u0001 é");
        Assert.Equal("""{"jsonrpc":"2.0","id":"é<&>","error":{"code":5,"message":"line\n\"quoted\" \u0001 é"}}""", error.ToString());
        var request = new JsonRpcRequest(1, "ns/méthode<&>");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"method":"ns/méthode<&>"}""", request.ToString());
        MessageAssert.Same(request, JsonRpcMessage.Parse(request.ToString()));
        MessageAssert.Same(error, JsonRpcMessage.Parse(error.ToString()));
    }

    [Fact]
    public void Write_ErrorWithoutId_WritesNullId()
    {
        var error = new JsonRpcError(RequestId.None, JsonRpcErrorDetail.FromCode(JsonRpcErrorCodes.ParseError));
        Assert.Equal(RequestId.Null, error.Id);
        Assert.Equal("""{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}""", error.ToString());
    }

    [Fact]
    public void Write_IntoUtf8JsonWriter_IsTheNextValue()
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            writer.WriteNumberValue(1);
            JsonRpcMessageWriter.Write(writer, new JsonRpcNotification("a"));
            new JsonRpcResponse(2, RawJson.Null).WriteTo(writer);
            writer.WriteEndArray();
        }

        Assert.Equal("""[1,{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":null}]""", Encoding.UTF8.GetString(buffer.WrittenSpan));
    }

    [Fact]
    public void Write_InvalidMessage_ThrowsAndWritesNothing()
    {
        var invalid = Assert.IsType<JsonRpcBatch>(JsonRpcMessage.Parse("[1]")).Messages[0];
        var buffer = new ArrayBufferWriter<byte>();
        Assert.Throws<InvalidOperationException>(() => JsonRpcMessageWriter.Write(buffer, invalid));
        Assert.Throws<InvalidOperationException>(() => JsonRpcMessageWriter.Write(buffer, new JsonRpcBatch([new JsonRpcNotification("a"), invalid])));
        Assert.Equal(0, buffer.WrittenCount);

        Assert.Throws<InvalidOperationException>(() => JsonSerializer.Serialize<object>(invalid));
        Assert.Throws<InvalidOperationException>(() => JsonSerializer.Serialize(invalid));

        // The thread's writer is still good afterwards.
        JsonRpcMessageWriter.Write(buffer, new JsonRpcNotification("a"));
        Assert.Equal("""{"jsonrpc":"2.0","method":"a"}""", Encoding.UTF8.GetString(buffer.WrittenSpan));
    }

    [Fact]
    public void Write_DestinationThrows_NextWriteOnThreadIsClean()
    {
        var failing = new FailingBufferWriter();
        Assert.Throws<IOException>(() => JsonRpcMessageWriter.Write(failing, new JsonRpcNotification("a")));
        var buffer = new ArrayBufferWriter<byte>();
        JsonRpcMessageWriter.Write(buffer, new JsonRpcNotification("b"));
        Assert.Equal("""{"jsonrpc":"2.0","method":"b"}""", Encoding.UTF8.GetString(buffer.WrittenSpan));
    }

    [Fact]
    public void Write_ReenteredFromDestination_BothMessagesAreCorrect()
    {
        // The per-thread writer is taken while in use, so a write made from inside another gets a writer of its own.
        var inner = new ArrayBufferWriter<byte>();
        var outer = new ReenteringBufferWriter(() => JsonRpcMessageWriter.Write(inner, new JsonRpcNotification("inner")));
        JsonRpcMessageWriter.Write(outer, new JsonRpcNotification("outer"));
        Assert.Equal("""{"jsonrpc":"2.0","method":"outer"}""", Encoding.UTF8.GetString(outer.Written.WrittenSpan));
        Assert.Equal("""{"jsonrpc":"2.0","method":"inner"}""", Encoding.UTF8.GetString(inner.WrittenSpan));
    }

    [Fact]
    public async Task Write_FromManyThreads_EachOutputIsItsOwn()
    {
        var tasks = Enumerable.Range(0, 8).Select(t => Task.Run(() =>
        {
            var buffer = new ArrayBufferWriter<byte>();
            for (var i = 0; i < 2_000; i++)
            {
                buffer.ResetWrittenCount();
                var id = (t * 100_000) + i;
                JsonRpcMessageWriter.Write(buffer, new JsonRpcRequest(id, "m", RawJson.EmptyArray));
                if (!buffer.WrittenSpan.SequenceEqual(Encoding.UTF8.GetBytes($$"""{"jsonrpc":"2.0","id":{{id}},"method":"m","params":[]}""")))
                {
                    return false;
                }
            }

            return true;
        }));

        var results = await Task.WhenAll(tasks).WaitAsync(TimeSpan.FromSeconds(10));
        Assert.All(results, Assert.True);
    }

    [Fact]
    public void Constructors_InvalidArguments_Throw()
    {
        Assert.Throws<ArgumentException>(() => new JsonRpcRequest(RequestId.None, "m"));
        Assert.Throws<ArgumentException>(() => new JsonRpcRequest(1, "m", RawJson.Parse("1")));
        Assert.Throws<ArgumentException>(() => new JsonRpcNotification("m", RawJson.Null));
        Assert.Throws<ArgumentNullException>(() => new JsonRpcNotification(null!));
        Assert.Throws<ArgumentException>(() => new JsonRpcResponse(RequestId.None, RawJson.Null));
        Assert.Throws<ArgumentException>(() => new JsonRpcResponse(1, RawJson.Absent));
        Assert.Throws<ArgumentNullException>(() => new JsonRpcError(1, null!));
        Assert.Throws<ArgumentNullException>(() => new JsonRpcErrorDetail(1, null!));
    }

    private static JsonRpcMessage Build(string json)
    {
        // Built in code (not parsed) so that the writer, not the input, decides every byte.
        var parsed = JsonRpcMessage.Parse(json);
        return parsed switch
        {
            JsonRpcRequest r => new JsonRpcRequest(r.Id, r.Method, r.Params.Detach()),
            JsonRpcNotification n => new JsonRpcNotification(n.Method, n.Params.Detach()),
            JsonRpcResponse r => new JsonRpcResponse(r.Id, r.Result.Detach()),
            JsonRpcError e => new JsonRpcError(e.Id, e.Error.Code, e.Error.Message, e.Error.Data.Detach()),
            JsonRpcBatch b => new JsonRpcBatch(b.Messages.Select(m => Build(m.ToString()))),
            _ => throw new InvalidOperationException(),
        };
    }

    private sealed class FailingBufferWriter : IBufferWriter<byte>
    {
        public void Advance(int count) => throw new IOException("Gone.");

        public Memory<byte> GetMemory(int sizeHint = 0) => throw new IOException("Gone.");

        public Span<byte> GetSpan(int sizeHint = 0) => throw new IOException("Gone.");
    }

    private sealed class ReenteringBufferWriter(Action reenter) : IBufferWriter<byte>
    {
        private bool _reentered;

        public ArrayBufferWriter<byte> Written { get; } = new();

        public void Advance(int count) => Written.Advance(count);

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            if (!_reentered)
            {
                _reentered = true;
                reenter();
            }

            return Written.GetMemory(sizeHint);
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }
}
