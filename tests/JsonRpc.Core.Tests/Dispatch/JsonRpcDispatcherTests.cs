using System.Buffers;
using System.Text;
using System.Text.Json;
using JsonRpc.Core.Tests.Support;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Core.Tests.Dispatch;

public class JsonRpcDispatcherTests
{
    private static readonly DispatchJsonContext Json = DispatchJsonContext.Default;

    private static JsonRpcDispatcher CreateCalculator()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add("subtract", "minuend", "subtrahend", static (int a, int b) => a - b, Json.Int32, Json.Int32, Json.Int32);
        dispatcher.Add("sum", static (int[] values) => values.Sum(), Json.Int32Array, Json.Int32);
        dispatcher.Add("subtractRecord", static (SubtractParams p) => p.Minuend - p.Subtrahend, Json.SubtractParams, Json.Int32);
        dispatcher.Add("get_data", static () => "hello", Json.String);
        return dispatcher;
    }

    private static async Task<string?> DispatchAsync(JsonRpcDispatcher dispatcher, string message, CancellationToken cancellationToken = default)
    {
        var output = new ArrayBufferWriter<byte>();
        var written = await dispatcher.DispatchAsync(Encoding.UTF8.GetBytes(message), output, cancellationToken).AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal(written, output.WrittenCount > 0);
        return written ? Encoding.UTF8.GetString(output.WrittenSpan) : null;
    }

    private static void AssertJsonEqual(string expected, string? actual)
    {
        Assert.NotNull(actual);
        using var e = JsonDocument.Parse(expected);
        using var a = JsonDocument.Parse(actual);
        Assert.True(JsonElement.DeepEquals(e.RootElement, a.RootElement), $"expected {expected}\nactual   {actual}");
    }

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}""", """{"jsonrpc":"2.0","result":19,"id":1}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":[23,42],"id":2}""", """{"jsonrpc":"2.0","result":-19,"id":2}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":{"subtrahend":23,"minuend":42},"id":3}""", """{"jsonrpc":"2.0","result":19,"id":3}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":23,"extra":1},"id":"4"}""", """{"jsonrpc":"2.0","result":19,"id":"4"}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtractRecord","params":{"minuend":42,"subtrahend":23},"id":5}""", """{"jsonrpc":"2.0","result":19,"id":5}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":1.50}""", """{"jsonrpc":"2.0","result":7,"id":1.50}""")]
    [InlineData("""{"jsonrpc":"2.0","method":"get_data","id":null}""", """{"jsonrpc":"2.0","result":"hello","id":null}""")]
    public async Task DispatchAsync_TypedMethods_AnswerWithResultAndEchoId(string request, string expected)
    {
        var answer = await DispatchAsync(CreateCalculator(), request);
        AssertJsonEqual(expected, answer);
    }

    [Fact]
    public async Task DispatchAsync_NumberIdText_IsEchoedExactly()
    {
        var answer = await DispatchAsync(CreateCalculator(), """{"jsonrpc":"2.0","method":"get_data","id":123456789012345678901234567890}""");
        Assert.Contains("\"id\":123456789012345678901234567890", answer, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"jsonrpc":"2.0","method":"foobar","id":"1"}""", -32601, "\"1\"")]
    [InlineData("""{"jsonrpc":"2.0","method":"foobar, "params":"bar","baz]""", -32700, "null")]
    [InlineData("""{"jsonrpc":"2.0","method":1,"params":"bar"}""", -32600, "null")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":[1],"id":9}""", -32602, "9")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":[1,2,3],"id":9}""", -32602, "9")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":{"minuend":1},"id":9}""", -32602, "9")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","params":["a","b"],"id":9}""", -32602, "9")]
    [InlineData("""{"jsonrpc":"2.0","method":"subtract","id":9}""", -32602, "9")]
    [InlineData("""{"jsonrpc":"2.0","method":"get_data","params":[1],"id":9}""", -32602, "9")]
    [InlineData("""[]""", -32600, "null")]
    public async Task DispatchAsync_BadCalls_AnswerSpecErrorWithId(string request, int code, string id)
    {
        var answer = await DispatchAsync(CreateCalculator(), request);
        using var document = JsonDocument.Parse(answer!);
        Assert.Equal(code, document.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        Assert.Equal(id, document.RootElement.GetProperty("id").GetRawText());
    }

    [Fact]
    public async Task DispatchAsync_HandlerThrows_AnswersInternalErrorAndKeepsServing()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add<int>("boom", static () => throw new InvalidOperationException("kaput"), Json.Int32);
        dispatcher.Add("fine", static () => 1, Json.Int32);

        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"kaput"}}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"boom","id":1}"""));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":2,"result":1}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"fine","id":2}"""));

        var quiet = new JsonRpcDispatcher(new JsonRpcDispatcherOptions { IncludeExceptionMessages = false });
        quiet.Add<int>("boom", static () => throw new InvalidOperationException("secret"), Json.Int32);
        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}""", await DispatchAsync(quiet, """{"jsonrpc":"2.0","method":"boom","id":1}"""));
    }

    [Fact]
    public async Task DispatchAsync_MethodException_AnswersItsCodeMessageAndData()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add<int>("deny", static () => throw new JsonRpcMethodException(-32010, "Denied", RawJson.Parse("""{"why":"quota"}""")), Json.Int32);
        AssertJsonEqual(
            """{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"Denied","data":{"why":"quota"}}}""",
            await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"deny","id":1}"""));
    }

    [Fact]
    public async Task DispatchAsync_AsyncHandler_AnswersAfterCompletion()
    {
        var gate = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add("wait", async ct => await gate.Task.WaitAsync(ct), Json.Int32);

        var output = new ArrayBufferWriter<byte>();
        var pending = dispatcher.DispatchAsync("""{"jsonrpc":"2.0","method":"wait","id":7}"""u8.ToArray(), output);
        Assert.False(pending.IsCompleted);
        Assert.Equal(0, output.WrittenCount);

        gate.SetResult(5);
        Assert.True(await pending.AsTask().WaitAsync(TimeSpan.FromSeconds(10)));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":7,"result":5}""", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    [Fact]
    public async Task DispatchAsync_Cancelled_AnswersRequestCancelled()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add("forever", async ct => { await Task.Delay(Timeout.Infinite, ct); return 0; }, Json.Int32);
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));
        var answer = await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"forever","id":1}""", cts.Token);
        AssertJsonEqual($$$"""{"jsonrpc":"2.0","id":1,"error":{"code":{{{JsonRpcDispatcher.RequestCancelled}}},"message":"Request cancelled"}}""", answer);
    }

    [Fact]
    public async Task DispatchAsync_Notification_RunsHandlerAndAnswersNothing()
    {
        var seen = new List<int>();
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.AddNotification("update", (int[] values, CancellationToken _) => { seen.AddRange(values); return ValueTask.CompletedTask; }, Json.Int32Array);
        dispatcher.Add<int>("boom", static () => throw new InvalidOperationException(), Json.Int32);

        Assert.Null(await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"""));
        Assert.Null(await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"boom"}"""));
        Assert.Null(await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"unknown"}"""));
        Assert.Equal([1, 2, 3, 4, 5], seen);

        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"result":null}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"update","params":[6],"id":1}"""));
    }

    [Fact]
    public async Task DispatchAsync_SpecBatch_AnswersEachCallOnce()
    {
        var dispatcher = CreateCalculator();
        dispatcher.AddNotification("notify_hello", static (int[] _, CancellationToken _) => ValueTask.CompletedTask, Json.Int32Array);
        var answer = await DispatchAsync(dispatcher, """
            [
                {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
                {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
                {"foo": "boo"},
                {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
                {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
            ]
            """);
        AssertJsonEqual("""
            [
                {"jsonrpc": "2.0", "result": 7, "id": "1"},
                {"jsonrpc": "2.0", "result": 19, "id": "2"},
                {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
                {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
                {"jsonrpc": "2.0", "result": "hello", "id": "9"}
            ]
            """, StripErrorData(answer!));

        Assert.Null(await DispatchAsync(dispatcher, """[{"jsonrpc":"2.0","method":"notify_hello","params":[1]},{"jsonrpc":"2.0","method":"notify_hello","params":[2]}]"""));
    }

    [Fact]
    public async Task DispatchAsync_NestedBatchElement_IsOneInvalidRequest()
    {
        var answer = await DispatchAsync(CreateCalculator(), """[[{"jsonrpc":"2.0","method":"get_data","id":1}],{"jsonrpc":"2.0","method":"get_data","id":2}]""");
        AssertJsonEqual(
            """[{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null},{"jsonrpc":"2.0","result":"hello","id":2}]""",
            StripErrorData(answer!));
    }

    [Fact]
    public async Task AddDelegate_BindsByPositionAndName_WithCancellationToken()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add("subtract", (int minuend, int subtrahend, CancellationToken ct) => Task.FromResult(minuend - subtrahend));
        dispatcher.Add("hello", (string name) => $"hi {name}");
        dispatcher.Add("nothing", () => { });

        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"result":19}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"""));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":2,"result":19}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"subtract","params":{"subtrahend":23,"minuend":42},"id":2}"""));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":3,"result":"hi bob"}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"hello","params":["bob"],"id":3}"""));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":4,"result":null}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"nothing","id":4}"""));
    }

    [Fact]
    public async Task AddRaw_GetsParamsBytesAndReturnsResultBytes()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.AddRaw("echo", static (p, _) => new ValueTask<RawJson>(p.IsEmpty ? RawJson.Null : p.Detach()));
        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"result":{"a":[1, 2 ]}}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"echo","params":{"a":[1, 2 ]},"id":1}"""));
        Assert.Contains("""{"a":[1, 2 ]}""", await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"echo","params":{"a":[1, 2 ]},"id":1}"""), StringComparison.Ordinal);
    }

    [Fact]
    public void AddAndRemove_ManageTheMethodTable()
    {
        var dispatcher = CreateCalculator();
        Assert.Throws<ArgumentException>(() => dispatcher.Add("sum", static () => 0, Json.Int32));
        Assert.True(dispatcher.Contains("sum"u8));
        Assert.True(dispatcher.Remove("sum"));
        Assert.False(dispatcher.Remove("sum"));
        Assert.False(dispatcher.Contains("sum"));
        Assert.Contains("subtract", dispatcher.Methods);
    }

    [Fact]
    public void DispatchAsync_SyncHandler_AllocatesNothingBeyondTheHandler()
    {
        var dispatcher = CreateCalculator();
        var request = """{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"""u8.ToArray();
        var output = new ArrayBufferWriter<byte>(256);
        for (var i = 0; i < 100; i++)
        {
            output.ResetWrittenCount();
            _ = dispatcher.DispatchAsync(request, output);
        }

        var allocated = Allocations.Least(() =>
        {
            for (var i = 0; i < 1000; i++)
            {
                output.ResetWrittenCount();
                var pending = dispatcher.DispatchAsync(request, output);
                Assert.True(pending.IsCompletedSuccessfully);
            }
        });

        Assert.Equal(0, allocated);
        AssertJsonEqual("""{"jsonrpc":"2.0","id":1,"result":19}""", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    private static string StripErrorData(string json)
    {
        using var document = JsonDocument.Parse(json);
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            Strip(document.RootElement, writer);
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);

        static void Strip(JsonElement element, Utf8JsonWriter writer)
        {
            switch (element.ValueKind)
            {
                case JsonValueKind.Object:
                    writer.WriteStartObject();
                    foreach (var property in element.EnumerateObject())
                    {
                        if (property.Name != "data")
                        {
                            writer.WritePropertyName(property.Name);
                            Strip(property.Value, writer);
                        }
                    }

                    writer.WriteEndObject();
                    break;
                case JsonValueKind.Array:
                    writer.WriteStartArray();
                    foreach (var item in element.EnumerateArray())
                    {
                        Strip(item, writer);
                    }

                    writer.WriteEndArray();
                    break;
                default:
                    element.WriteTo(writer);
                    break;
            }
        }
    }
}
