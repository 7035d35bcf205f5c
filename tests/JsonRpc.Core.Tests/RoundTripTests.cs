namespace JsonRpc.Core.Tests;

/// <summary>Every message kind with every kind of id, read through every path, written, and read again.</summary>
public class RoundTripTests
{
    /// <summary>Id tokens as a peer may send them; each must come back as the same JSON value (numbers: the same text).</summary>
    public static readonly string[] IdTokens =
    [
        "1", "0", "-1", "42", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "123456789012345678901234567890", "-123456789012345678901234567890",
        "1.5", "-0", "-0.0", "1e3", "1E3", "1E+3", "1.0", "0.0", "-1.5e-7",
        "\"1\"", "\"\"", "\"abc\"", "\"a\\\"b\\\\c\"", "\"\\u00e9\\ud83d\\ude00\"", "\"é😀\"", "\"\\/\"", "\"\\u0000\"",
        "\"\\u0031\"", "null",
    ];

    public static TheoryData<string, string> IdsAndKinds()
    {
        var data = new TheoryData<string, string>();
        foreach (var id in IdTokens)
        {
            foreach (var template in Templates)
            {
                data.Add(template, id);
            }
        }

        return data;
    }

    private static readonly string[] Templates =
    [
        """{"jsonrpc":"2.0","id":ID,"method":"subtract","params":[42,23]}""",
        """{"jsonrpc":"2.0","id":ID,"method":"m"}""",
        """{"jsonrpc":"2.0","id":ID,"result":{"a":[1,2.50,"x"]}}""",
        """{"jsonrpc":"2.0","id":ID,"result":null}""",
        """{"jsonrpc":"2.0","id":ID,"error":{"code":-32601,"message":"Method not found"}}""",
        """{"jsonrpc":"2.0","id":ID,"error":{"code":7,"message":"m","data":{"k":[true,false,null]}}}""",
    ];

    [Theory]
    [MemberData(nameof(IdsAndKinds))]
    public void Read_MessageWithId_KeepsIdThroughEveryPathAndWritesItBack(string template, string idToken)
    {
        var json = template.Replace("ID", idToken, StringComparison.Ordinal);
        var bytes = Encoding.UTF8.GetBytes(json);
        var expectedId = ExpectedId(idToken);

        // The allocation-free reader.
        Assert.True(JsonRpcMessageReader.TryRead(bytes, out var info, out var error), error.Detail);
        Assert.Equal(expectedId, info.GetId(bytes));
        Assert.Equal(idToken, Encoding.UTF8.GetString(bytes.AsSpan(info.IdToken)));
        Assert.Equal(expectedId.Kind, info.IdKind);
        Assert.Equal(expectedId.TryGetInt64(out var expectedNumber), info.TryGetInt64Id(out var number));
        Assert.Equal(expectedNumber, number);

        JsonRpcMessage? first = null;
        foreach (var path in MessageReading.AllPaths)
        {
            var message = MessageReading.Read(path, bytes);
            Assert.Equal(expectedId, IdOf(message));
            if (first is null)
            {
                first = message;
            }
            else
            {
                MessageAssert.Same(first, message);
            }

            // Written, the id is the same JSON value; a number keeps its text exactly.
            var written = message.ToUtf8Bytes();
            AssertIdWritten(idToken, expectedId, written);
            if (!json.Contains('\\', StringComparison.Ordinal) && !json.Any(char.IsSurrogate))
            {
                // Canonical input comes back byte for byte (the writer spells characters outside the BMP as \u escapes).
                Assert.Equal(json, Encoding.UTF8.GetString(written));
            }

            // Writing is a fixed point: what we wrote reads back to the same message and writes the same bytes.
            var again = JsonRpcMessage.Parse(written);
            MessageAssert.Same(message, again);
            Assert.Equal(written, again.ToUtf8Bytes());

            // And through the serializer, reflection and source-generated.
            var viaReflection = JsonSerializer.SerializeToUtf8Bytes(message);
            var viaContext = JsonSerializer.SerializeToUtf8Bytes(message, JsonRpcJsonContext.Default.JsonRpcMessage);
            MessageAssert.Same(message, JsonSerializer.Deserialize<JsonRpcMessage>(viaReflection)!);
            MessageAssert.Same(message, JsonSerializer.Deserialize(viaContext, JsonRpcJsonContext.Default.JsonRpcMessage)!);
            AssertIdWritten(idToken, expectedId, viaContext);
        }
    }

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"foobar"}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m","params":{"a":{"b":[{}]}}}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"m","params":[]}""")]
    public void Read_Notification_HasNoIdOnEveryPath(string json)
    {
        var bytes = Encoding.UTF8.GetBytes(json);
        Assert.True(JsonRpcMessageReader.TryRead(bytes, out var info, out _));
        Assert.Equal(JsonRpcMessageKind.Notification, info.Kind);
        Assert.Equal(RequestIdKind.None, info.IdKind);
        Assert.Equal(RequestId.None, info.GetId(bytes));
        foreach (var path in MessageReading.AllPaths)
        {
            var notification = Assert.IsType<JsonRpcNotification>(MessageReading.Read(path, bytes));
            Assert.Equal(json, notification.ToString());
            Assert.Equal(json, JsonSerializer.Serialize(notification, JsonRpcJsonContext.Default.JsonRpcNotification));
        }
    }

    [Fact]
    public void Read_Batch_RoundTripsEveryKindInOrder()
    {
        var elements = Templates.Select((t, i) => t.Replace("ID", (i + 1).ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal))
            .Append("""{"jsonrpc":"2.0","method":"n","params":{}}""");
        var json = "[" + string.Join(",", elements) + "]";
        foreach (var path in MessageReading.AllPaths)
        {
            var batch = Assert.IsType<JsonRpcBatch>(MessageReading.Read(path, Encoding.UTF8.GetBytes(json)));
            Assert.Equal(Templates.Length + 1, batch.Messages.Count);
            Assert.Equal(json, batch.ToString());
            Assert.Equal(json, JsonSerializer.Serialize<JsonRpcMessage>(batch, JsonRpcJsonContext.Default.JsonRpcMessage));
        }
    }

    [Fact]
    public async Task Read_SplitIntoSegmentsOfEverySize_ReadsTheSame()
    {
        var json = Encoding.UTF8.GetBytes(
            """[{"jsonrpc":"2.0","id":"é\u00e9","method":"m\u0065","params":{"k":[1,2.5e-3,"\ud83d\ude00"]}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x","data":null}}]""");
        var expected = JsonRpcMessage.Parse(json);
        for (var size = 1; size <= json.Length; size++)
        {
            var sequence = Support.Utf8Sequence.Split(json, size);
            MessageAssert.Same(expected, JsonRpcMessage.Parse(sequence));
            var fromPipe = await JsonSerializer.DeserializeAsync(System.IO.Pipelines.PipeReader.Create(sequence), JsonRpcJsonContext.Default.JsonRpcMessage)
                .AsTask().WaitAsync(TimeSpan.FromSeconds(10));
            MessageAssert.Same(expected, fromPipe!);
        }
    }

    [Fact]
    public void Write_MessagesBuiltInCode_ReadBackTheSame()
    {
        var utf8Name = "méthode/😀";
        JsonRpcMessage[] messages =
        [
            new JsonRpcRequest(7, "add", RawJson.From(new[] { 1, 2 }, TestJsonContext.Default.Int32Array)),
            new JsonRpcRequest("x\"y", utf8Name, RawJson.EmptyObject),
            new JsonRpcRequest(RequestId.Null, "m"),
            new JsonRpcRequest(RequestId.FromNumberText("1.50"), "m", RawJson.EmptyArray),
            new JsonRpcNotification(utf8Name, RawJson.Parse(""" {"a" : 1} """)),
            new JsonRpcResponse(long.MinValue, RawJson.Null),
            new JsonRpcResponse("r", RawJson.From("\u2028<&>", TestJsonContext.Default.String)),
            new JsonRpcError(RequestId.None, JsonRpcErrorDetail.FromCode(JsonRpcErrorCodes.ParseError)),
            new JsonRpcError(3, -32001, "busy \"now\"\n", RawJson.Parse("[1]")),
            new JsonRpcBatch([new JsonRpcNotification("a"), new JsonRpcRequest(1, "b")]),
        ];

        foreach (var message in messages)
        {
            var bytes = message.ToUtf8Bytes();
            foreach (var path in MessageReading.AllPaths)
            {
                MessageAssert.Same(message, MessageReading.Read(path, bytes));
            }

            Assert.True(JsonRpcMessageReader.TryRead(bytes, out _, out var error), error.Detail);
            MessageAssert.Same(message, JsonSerializer.Deserialize(JsonSerializer.SerializeToUtf8Bytes(message, JsonRpcJsonContext.Default.JsonRpcMessage), JsonRpcJsonContext.Default.JsonRpcMessage)!);
        }
    }

    private static RequestId ExpectedId(string token)
    {
        using var document = JsonDocument.Parse(token);
        var element = document.RootElement;
        return element.ValueKind switch
        {
            JsonValueKind.Null => RequestId.Null,
            JsonValueKind.String => new RequestId(element.GetString()!),
            _ => RequestId.FromNumberText(token),
        };
    }

    private static RequestId IdOf(JsonRpcMessage message) => message switch
    {
        JsonRpcRequest r => r.Id,
        JsonRpcResponse r => r.Id,
        JsonRpcError e => e.Id,
        _ => throw new InvalidOperationException(message.Kind.ToString()),
    };

    private static void AssertIdWritten(string idToken, RequestId expected, byte[] written)
    {
        Assert.True(JsonRpcMessageReader.TryRead(written, out var info, out var error), error.Detail);
        Assert.Equal(expected, info.GetId(written));
        if (expected.IsNumber || expected.IsNull)
        {
            Assert.Equal(idToken, Encoding.UTF8.GetString(written.AsSpan(info.IdToken)));
        }
    }
}
