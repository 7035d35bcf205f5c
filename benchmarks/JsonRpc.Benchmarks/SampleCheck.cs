using System.Text.Json;
using System.Text.Json.Nodes;
using JsonRpc.Benchmarks.Baseline;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Benchmarks.Messages;
using JsonRpc.Protocol;
using Mcp = ModelContextProtocol.Protocol;

namespace JsonRpc.Benchmarks;

/// <summary>
/// Checks, before any measurement, that every contender read or wrote the same message, so that no benchmark is
/// fast because it did less than the others. A failed check throws and BenchmarkDotNet reports the case as failed.
/// </summary>
internal static class SampleCheck
{
    public static void ReadersAgree(MessageReadBenchmarks benchmarks, SampleKind kind)
    {
        var expected = ToMessageKind(kind);
        Require(benchmarks.OursReader() == expected, "JsonRpcMessageReader.TryRead");
        Require(benchmarks.OursParse().Kind == expected, "JsonRpcMessage.Parse");
        Require(benchmarks.OursJsonSerializer()?.Kind == expected, "JsonSerializer.Deserialize<JsonRpcMessage>");
        Require(benchmarks.OursJsonSerializerContext()?.Kind == expected, "JsonSerializer.Deserialize with JsonRpcJsonContext");
        Require(KindOf(benchmarks.BaselineGetRawText()) == expected, "the GetRawText baseline");
        Require(KindOf(benchmarks.BaselineFromElement()) == expected, "the JsonElement baseline");
        Require(KindOf(benchmarks.Mcp()) == expected, "the MCP SDK");
        Require(KindOf(benchmarks.StreamJsonRpc()) == expected, "StreamJsonRpc");

        // The values each kept must be the same JSON.
        var ours = benchmarks.OursParse();
        var baseline = benchmarks.BaselineGetRawText();
        var (oursValue, baselineValue) = (ours, baseline) switch
        {
            (JsonRpcRequest o, BaselineRequest b) => (o.Params.ToString(), b.Params?.GetRawText()),
            (JsonRpcNotification o, BaselineNotification b) => (o.Params.ToString(), b.Params?.GetRawText()),
            (JsonRpcResponse o, BaselineResponse b) => (o.Result.ToString(), b.Result.GetRawText()),
            (JsonRpcError o, BaselineError b) => (o.Error.Message + o.Error.Data, b.Error.Message + b.Error.Data?.GetRawText()),
            _ => ("?", "!"),
        };
        Require(oursValue == baselineValue, "ours and the baseline keeping the same params / result / error");

        // StreamJsonRpc keeps values as JsonElements until asked for a type: asked for JsonElement, the same JSON.
        var streamJsonRpcValue = benchmarks.StreamJsonRpcKept() switch
        {
            StreamJsonRpc.Protocol.JsonRpcRequest r => Arguments(r),
            StreamJsonRpc.Protocol.JsonRpcResult r => r.GetResult<JsonElement>().GetRawText(),
            StreamJsonRpc.Protocol.JsonRpcError e => e.Error!.Message + (e.Error.GetData<JsonElement?>() is { } data ? data.GetRawText() : string.Empty),
            _ => "!",
        };
        Require(ours is JsonRpcRequest or JsonRpcNotification ? JsonNode.DeepEquals(JsonNode.Parse(streamJsonRpcValue), JsonNode.Parse(oursValue!)) : streamJsonRpcValue == oursValue,
            $"StreamJsonRpc keeping the same params / result / error (got {streamJsonRpcValue})");
    }

    /// <summary>A StreamJsonRpc request's arguments, each taken as a JsonElement, put back together as JSON.</summary>
    private static string Arguments(StreamJsonRpc.Protocol.JsonRpcRequest request)
    {
        JsonNode Argument(string? name, int position)
            => request.TryGetArgumentByNameOrIndex(name, position, typeof(JsonElement), out var value) && value is JsonElement element
                ? JsonNode.Parse(element.GetRawText())!
                : throw new InvalidOperationException($"Sample check failed: StreamJsonRpc has no argument {name ?? position.ToString(System.Globalization.CultureInfo.InvariantCulture)}.");

        if (request.ArgumentNames is { } names)
        {
            var named = new JsonObject();
            foreach (var name in names)
            {
                named[name] = Argument(name, -1);
            }

            return named.ToJsonString();
        }

        var positional = new JsonArray();
        for (var i = 0; i < request.ArgumentCount; i++)
        {
            positional.Add(Argument(null, i));
        }

        return positional.ToJsonString();
    }

    public static void WritersAgree(MessageWriteBenchmarks benchmarks, byte[] original)
    {
        var expected = JsonNode.Parse(original);
        benchmarks.Baseline();
        Require(JsonNode.DeepEquals(expected, JsonNode.Parse(benchmarks.Written)), "the baseline writing the message it read");
        benchmarks.Ours();
        Require(JsonNode.DeepEquals(expected, JsonNode.Parse(benchmarks.Written)), "ours writing the message it read");
        benchmarks.Mcp();
        Require(JsonNode.DeepEquals(expected, JsonNode.Parse(benchmarks.Written)), "the MCP SDK writing the message it read");
        benchmarks.StreamJsonRpc();
        Require(JsonNode.DeepEquals(expected, JsonNode.Parse(benchmarks.Written)), "StreamJsonRpc writing the same message");
    }

    public static void DispatchersAgree(DispatchBenchmarks benchmarks, DispatchScenario scenario)
    {
        benchmarks.Baseline();
        var baseline = Summarize(JsonNode.Parse(benchmarks.Written));
        benchmarks.Ours();
        var ours = Summarize(JsonNode.Parse(benchmarks.Written));
        var expected = scenario switch
        {
            DispatchScenario.Success => "1:result=19",
            DispatchScenario.HandlerThrows => "1:error=-32603 The handler failed.",
            DispatchScenario.MethodNotFound => "1:error=-32601",
            _ => string.Join(" ", Enumerable.Range(1, 20).Select(i => $"{i}:result=19")),
        };
        Require(baseline == expected, $"the baseline dispatcher answering {scenario} (got {baseline})");
        Require(ours == expected, $"our dispatcher answering {scenario} (got {ours})");
        benchmarks.OursOverPipe();
        var oursOverPipe = Summarize(JsonNode.Parse(benchmarks.Written));
        Require(oursOverPipe == expected, $"our dispatcher over a pipe answering {scenario} (got {oursOverPipe})");

        // StreamJsonRpc answers one line per call. A throwing handler is its own error code (-32000, "invocation
        // error", with the exception's type and stack in data) carrying the same message.
        benchmarks.StreamJsonRpc();
        var lines = System.Text.Encoding.UTF8.GetString(benchmarks.Written).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var streamJsonRpc = string.Join(" ", lines.Select(line => Summarize(JsonNode.Parse(line))));
        var streamJsonRpcExpected = scenario == DispatchScenario.HandlerThrows ? "1:error=-32000" : expected;
        Require(streamJsonRpc == streamJsonRpcExpected, $"StreamJsonRpc answering {scenario} (got {streamJsonRpc})");
        if (scenario == DispatchScenario.HandlerThrows)
        {
            Require(lines[0].Contains("The handler failed.", StringComparison.Ordinal), "StreamJsonRpc carrying the exception's message");
        }
    }

    /// <summary>Each answer's id and outcome, in order: <c>1:result=19</c> or <c>1:error=-32601</c>.</summary>
    private static string Summarize(JsonNode? answer) => answer switch
    {
        JsonArray batch => string.Join(" ", batch.Select(Summarize)),
        JsonObject single when single["error"] is { } error && (int)error["code"]! == -32603 => $"{single["id"]}:error=-32603 {error["message"]}",
        JsonObject single when single["error"] is { } error => $"{single["id"]}:error={error["code"]}",
        JsonObject single => $"{single["id"]}:result={single["result"]?.ToJsonString()}",
        _ => "?",
    };

    private static JsonRpcMessageKind ToMessageKind(SampleKind kind) => kind switch
    {
        SampleKind.Request => JsonRpcMessageKind.Request,
        SampleKind.Notification => JsonRpcMessageKind.Notification,
        SampleKind.Response => JsonRpcMessageKind.Response,
        _ => JsonRpcMessageKind.Error,
    };

    private static JsonRpcMessageKind KindOf(BaselineMessage? message) => message switch
    {
        BaselineRequest => JsonRpcMessageKind.Request,
        BaselineNotification => JsonRpcMessageKind.Notification,
        BaselineResponse => JsonRpcMessageKind.Response,
        BaselineError => JsonRpcMessageKind.Error,
        _ => JsonRpcMessageKind.Invalid,
    };

    private static JsonRpcMessageKind KindOf(StreamJsonRpc.Protocol.JsonRpcMessage message) => message switch
    {
        StreamJsonRpc.Protocol.JsonRpcRequest { IsNotification: true } => JsonRpcMessageKind.Notification,
        StreamJsonRpc.Protocol.JsonRpcRequest => JsonRpcMessageKind.Request,
        StreamJsonRpc.Protocol.JsonRpcResult => JsonRpcMessageKind.Response,
        StreamJsonRpc.Protocol.JsonRpcError => JsonRpcMessageKind.Error,
        _ => JsonRpcMessageKind.Invalid,
    };

    private static JsonRpcMessageKind KindOf(Mcp.JsonRpcMessage? message) => message switch
    {
        Mcp.JsonRpcRequest => JsonRpcMessageKind.Request,
        Mcp.JsonRpcNotification => JsonRpcMessageKind.Notification,
        Mcp.JsonRpcResponse => JsonRpcMessageKind.Response,
        Mcp.JsonRpcError => JsonRpcMessageKind.Error,
        _ => JsonRpcMessageKind.Invalid,
    };

    private static void Require(bool condition, string what)
    {
        if (!condition)
        {
            throw new InvalidOperationException($"Sample check failed: {what}.");
        }
    }
}
