using System.Buffers;
using System.Text.Json.Serialization;
using JsonRpc.Dispatch;

namespace JsonRpc.Core.Tests;

/// <summary>The messages and dispatcher quick starts of the repository's README.md, as written.</summary>
public class ReadmeTests
{
    [Fact]
    public void MessagesQuickStart_AsDocumented_Works()
    {
        var bufferWriter = new ArrayBufferWriter<byte>();
        var bytes = """{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"""u8.ToArray();
        var utf8 = bytes.AsSpan();
        var errorCode = 0;
        RequestId errorId = default;
        JsonRpcError? errorResponse = null;
        var methodSeen = "";

        // --- README quick start ---
        var message = JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}""");
        if (message is JsonRpcRequest request)
        {
            int[] operands = request.Params.Deserialize(MyJson.Default.Int32Array)!;
            var response = new JsonRpcResponse(request.Id, RawJson.From(operands[0] - operands[1], MyJson.Default.Int32));
            response.WriteTo(bufferWriter);
        }

        var same = JsonSerializer.Deserialize(bytes, JsonRpcJsonContext.Default.JsonRpcMessage);

        try { JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":1,"id":7}"""); }
        catch (JsonRpcProtocolException ex) { errorCode = ex.ErrorCode; errorId = ex.Id; errorResponse = ex.ToErrorResponse(); }

        if (JsonRpcMessageReader.TryRead(utf8, out var info, out var error))
        {
            ReadOnlySpan<byte> method = utf8[info.Method];
            methodSeen = Encoding.UTF8.GetString(method);
        }
        // --- end ---

        JsonAssert.Equal("""{"jsonrpc":"2.0","result":19,"id":1}""", bufferWriter.WrittenSpan);
        Assert.Equal("subtract", Assert.IsType<JsonRpcRequest>(same).Method);
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, errorCode);
        Assert.Equal(new RequestId(7), errorId);
        Assert.Equal(new RequestId(7), errorResponse!.Id);
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, errorResponse.Error.Code);
        Assert.Equal("subtract", methodSeen);
        Assert.Equal(default, error);
    }

    [Fact]
    public async Task DispatcherQuickStart_AsDocumented_Works()
    {
        var output = new ArrayBufferWriter<byte>();
        var requestBytes = """{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"""u8.ToArray();

        // --- README quick start ---
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.Add("subtract", "minuend", "subtrahend", (int a, int b) => a - b, MyJson.Default.Int32, MyJson.Default.Int32, MyJson.Default.Int32);
        dispatcher.Add("hello", (string name) => $"hi {name}");
        await dispatcher.DispatchAsync(requestBytes, output);
        // --- end ---

        JsonAssert.Equal("""{"jsonrpc":"2.0","result":19,"id":1}""", output.WrittenSpan);

        output.ResetWrittenCount();
        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","method":"subtract","params":{"subtrahend":23,"minuend":42},"id":2}"""u8.ToArray(), output);
        JsonAssert.Equal("""{"jsonrpc":"2.0","result":19,"id":2}""", output.WrittenSpan);

        output.ResetWrittenCount();
        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","method":"hello","params":["ada"],"id":3}"""u8.ToArray(), output);
        JsonAssert.Equal("""{"jsonrpc":"2.0","result":"hi ada","id":3}""", output.WrittenSpan);

        output.ResetWrittenCount();
        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","method":"nope","id":4}"""u8.ToArray(), output);
        Assert.Contains("-32601", Encoding.UTF8.GetString(output.WrittenSpan), StringComparison.Ordinal);
    }
}

/// <summary>The README's source-generated context.</summary>
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(int[]))]
internal sealed partial class MyJson : JsonSerializerContext;
