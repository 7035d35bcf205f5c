namespace JsonRpc.Core.Tests;

public class BatchTests
{
    private const string Mixed = """
        [
          {"jsonrpc":"2.0","id":1,"method":"ok"},
          1,
          {"jsonrpc":"2.0","id":2,"method":5},
          {"jsonrpc":"1.0","method":"n"},
          {"jsonrpc":"2.0","method":"notify","params":[1]},
          [{"jsonrpc":"2.0","id":3,"method":"nested"}],
          [],
          {"jsonrpc":"2.0","id":"d","method":"a","method":"b"},
          {"jsonrpc":"2.0","id":4,"result":{"k":1,"k":2}},
          null,
          "text",
          {"jsonrpc":"2.0","id":5,"result":"fine"}
        ]
        """;

    public static TheoryData<ReadPath> Paths() => new(MessageReading.AllPaths);

    [Theory]
    [MemberData(nameof(Paths))]
    public void Read_MixedBatch_EachInvalidElementIsItsOwnErrorWithItsId(ReadPath path)
    {
        var batch = Assert.IsType<JsonRpcBatch>(MessageReading.Read(path, Encoding.UTF8.GetBytes(Mixed)));
        var m = batch.Messages;
        Assert.Equal(12, m.Count);
        Assert.IsType<JsonRpcRequest>(m[0]);
        AssertInvalid(m[1], RequestId.None);
        AssertInvalid(m[2], 2);
        AssertInvalid(m[3], RequestId.None);
        Assert.IsType<JsonRpcNotification>(m[4]);
        AssertInvalid(m[5], RequestId.None); // a nested array is not a message: no batches inside batches
        AssertInvalid(m[6], RequestId.None);
        AssertInvalid(m[7], "d");
        AssertInvalid(m[8], 4);
        AssertInvalid(m[9], RequestId.None);
        AssertInvalid(m[10], RequestId.None);
        Assert.Equal("\"fine\"", Assert.IsType<JsonRpcResponse>(m[11]).Result.ToString());

        var answers = m.OfType<JsonRpcInvalidMessage>().Select(i => (JsonRpcMessage)i.ToErrorResponse()).ToList();
        JsonAssert.Equal(
            """
            [
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":"d","error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},
              {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}
            ]
            """,
            new JsonRpcBatch(answers).ToUtf8Bytes());
    }

    [Fact]
    public void TryRead_MixedBatch_AcceptsArrayAndReadsEachElementOnItsOwn()
    {
        var bytes = Encoding.UTF8.GetBytes(Mixed);
        Assert.True(JsonRpcMessageReader.TryRead(bytes, out var info, out _));
        Assert.Equal(JsonRpcMessageKind.Batch, info.Kind);
        Assert.Equal(12, info.BatchCount);

        var kinds = new List<JsonRpcMessageKind>();
        var ids = new List<RequestId>();
        foreach (var range in JsonRpcMessageReader.EnumerateBatch(bytes))
        {
            var element = bytes[range];
            var ok = JsonRpcMessageReader.TryReadBatchElement(element, out var elementInfo, out var error);
            Assert.Equal(ok, error.Code == 0);
            Assert.True(ok || error.Code == JsonRpcErrorCodes.InvalidRequest);
            kinds.Add(elementInfo.Kind);
            ids.Add(elementInfo.GetId(element));
        }

        Assert.Equal(
            [
                JsonRpcMessageKind.Request, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid,
                JsonRpcMessageKind.Notification, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid,
                JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Invalid, JsonRpcMessageKind.Response,
            ],
            kinds);
        Assert.Equal([1, RequestId.None, 2, RequestId.None, RequestId.None, RequestId.None, RequestId.None, "d", 4, RequestId.None, RequestId.None, 5], ids);
    }

    [Fact]
    public void TryReadBatchElement_Array_IsInvalidRequestThoughTryReadSeesABatch()
    {
        var nested = """[{"jsonrpc":"2.0","id":3,"method":"nested"}]"""u8;
        Assert.True(JsonRpcMessageReader.TryRead(nested, out var asMessage, out _));
        Assert.Equal(JsonRpcMessageKind.Batch, asMessage.Kind);

        Assert.False(JsonRpcMessageReader.TryReadBatchElement(nested, out var info, out var error));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, error.Code);
        Assert.Equal(JsonRpcMessageKind.Invalid, info.Kind);
        Assert.False(JsonRpcMessageReader.TryReadBatchElement(nested, 8, out _, out error));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, error.Code);

        Assert.True(JsonRpcMessageReader.TryReadBatchElement("""{"jsonrpc":"2.0","method":"n"}"""u8, out info, out _));
        Assert.Equal(JsonRpcMessageKind.Notification, info.Kind);
    }

    [Theory]
    [InlineData("[]")]
    [InlineData(" [ \n ] ")]
    public void Read_EmptyBatch_IsInvalidRequest(string json) => Refusal.Assert(json, JsonRpcErrorCodes.InvalidRequest, RequestId.None);

    [Theory]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method"]""")]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"\ud800"}]""")]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"}""")]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"},]""")]
    [InlineData("""[{"jsonrpc":"2.0","id":1,"method":"a"}] []""")]
    public void Read_BatchWithSyntaxErrorAnywhere_IsOneParseError(string json) => Refusal.Assert(json, JsonRpcErrorCodes.ParseError, RequestId.None);

    [Fact]
    public void Read_DeeplyNestedArrays_AreParseErrorBeyondDepthAndInvalidElementsWithin()
    {
        var within = "[" + new string('[', 62) + new string(']', 62) + "]";
        var batch = Assert.IsType<JsonRpcBatch>(JsonRpcMessage.Parse(within));
        AssertInvalid(Assert.Single(batch.Messages), RequestId.None);
        Refusal.Assert("[" + new string('[', 64) + new string(']', 64) + "]", JsonRpcErrorCodes.ParseError, RequestId.None);
    }

    [Fact]
    public void Read_LargeBatch_KeepsEveryElementInOrder()
    {
        var elements = Enumerable.Range(0, 2_000).Select(i => $$$"""{"jsonrpc":"2.0","id":{{{i}}},"method":"m{{{i % 7}}}","params":{"i":{{{i}}}}}""");
        var bytes = Encoding.UTF8.GetBytes("[" + string.Join(",", elements) + "]");
        var batch = Assert.IsType<JsonRpcBatch>(JsonRpcMessage.Parse(bytes.AsMemory()));
        Assert.Equal(2_000, batch.Messages.Count);
        for (var i = 0; i < batch.Messages.Count; i++)
        {
            var request = Assert.IsType<JsonRpcRequest>(batch.Messages[i]);
            Assert.Equal(new RequestId(i), request.Id);
            Assert.Equal($$"""{"i":{{i}}}""", request.Params.ToString());
        }

        Assert.True(JsonRpcMessageReader.TryRead(bytes, out var info, out _));
        Assert.Equal(2_000, info.BatchCount);
    }

    [Fact]
    public void Constructor_EmptyNestedOrNull_Throws()
    {
        Assert.Throws<ArgumentException>(() => new JsonRpcBatch([]));
        Assert.Throws<ArgumentException>(() => new JsonRpcBatch([new JsonRpcBatch([new JsonRpcNotification("a")])]));
        Assert.Throws<ArgumentException>(() => new JsonRpcBatch([null!]));
        Assert.Throws<ArgumentNullException>(() => new JsonRpcBatch(null!));
    }

    [Fact]
    public void EnumerateBatch_NotAnArray_ThrowsArgumentException()
    {
        Assert.Throws<ArgumentException>(() =>
        {
            foreach (var unused in JsonRpcMessageReader.EnumerateBatch("""{"jsonrpc":"2.0"}"""u8))
            {
            }
        });
    }

    private static void AssertInvalid(JsonRpcMessage message, RequestId id)
    {
        var invalid = Assert.IsType<JsonRpcInvalidMessage>(message);
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, invalid.Code);
        Assert.Equal(id, invalid.Id);
        Assert.False(string.IsNullOrEmpty(invalid.Detail));
        var answer = invalid.ToErrorResponse();
        Assert.Equal(id.IsNone ? RequestId.Null : id, answer.Id);
        Assert.Equal("Invalid Request", answer.Error.Message);
    }
}
