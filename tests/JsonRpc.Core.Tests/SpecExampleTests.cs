namespace JsonRpc.Core.Tests;

/// <summary>The examples of section 7 of the JSON-RPC 2.0 specification, through every read path and the reader.</summary>
public class SpecExampleTests
{
    private static readonly Dictionary<string, SpecExample> Examples = Load();

    public static TheoryData<string, ReadPath> ExamplesAndPaths()
    {
        var data = new TheoryData<string, ReadPath>();
        foreach (var name in Examples.Keys)
        {
            foreach (var path in MessageReading.AllPaths)
            {
                data.Add(name, path);
            }
        }

        return data;
    }

    public static TheoryData<string> Names() => new(Examples.Keys);

    // Only the examples the specification answers (a notification's row would have nothing to check).
    public static TheoryData<string> NamesWithResponse() => new(Examples.Where(e => e.Value.Response is not null).Select(e => e.Key));

    [Fact]
    public void SpecExamples_File_HoldsEveryExampleOfSection7()
    {
        Assert.Equal(15, Examples.Count);
        Assert.Equal(12, NamesWithResponse().Count); // three have no answer: two notifications and a batch of them
        Assert.Contains("batch", Examples.Keys);
        Assert.Contains("invalid_json", Examples.Keys);
    }

    [Theory]
    [MemberData(nameof(ExamplesAndPaths))]
    public void Read_SpecExample_AnswerIsJsonEqualToSpec(string name, ReadPath path)
    {
        var example = Examples[name];
        var answer = SpecServer.Answer(path, example.Request);
        AssertAnswer(example, answer);
    }

    [Theory]
    [MemberData(nameof(Names))]
    public void TryRead_SpecExample_AnswerIsJsonEqualToSpec(string name)
    {
        var example = Examples[name];
        AssertAnswer(example, SpecServer.AnswerWithReader(example.Request));
    }

    [Theory]
    [MemberData(nameof(ExamplesAndPaths))]
    public void Read_SpecExample_MeansWhatTheSpecSays(string name, ReadPath path)
    {
        JsonRpcMessage message;
        try
        {
            message = MessageReading.Read(path, Examples[name].Request);
        }
        catch (JsonException ex) when (ex is not JsonRpcProtocolException && MessageReading.SerializerReadsAhead(path))
        {
            Assert.True(name is "invalid_json" or "batch_invalid_json", $"{name}: {ex.Message}");
            return;
        }
        catch (JsonRpcProtocolException ex)
        {
            var (code, id) = name switch
            {
                "invalid_json" or "batch_invalid_json" => (JsonRpcErrorCodes.ParseError, RequestId.None),
                "invalid_request_object" or "empty_array" => (JsonRpcErrorCodes.InvalidRequest, RequestId.None),
                _ => throw new Xunit.Sdk.XunitException($"{name} should have been read, but: {ex.Message}"),
            };
            Assert.Equal(code, ex.ErrorCode);
            Assert.Equal(id, ex.Id);
            return;
        }

        switch (name)
        {
            case "positional_params_1":
                AssertRequest(message, 1, "subtract", "[42, 23]");
                break;
            case "positional_params_2":
                AssertRequest(message, 2, "subtract", "[23, 42]");
                break;
            case "named_params_1":
                AssertRequest(message, 3, "subtract", """{"subtrahend": 23, "minuend": 42}""");
                break;
            case "named_params_2":
                AssertRequest(message, 4, "subtract", """{"minuend": 42, "subtrahend": 23}""");
                break;
            case "notification_1":
                AssertNotification(message, "update", "[1,2,3,4,5]");
                break;
            case "notification_2":
                AssertNotification(message, "foobar", null);
                break;
            case "non_existent_method":
                AssertRequest(message, "1", "foobar", null);
                break;
            case "invalid_batch_not_empty":
            case "invalid_batch":
                var invalid = Assert.IsType<JsonRpcBatch>(message);
                Assert.Equal(name == "invalid_batch" ? 3 : 1, invalid.Messages.Count);
                Assert.All(invalid.Messages, m =>
                {
                    var element = Assert.IsType<JsonRpcInvalidMessage>(m);
                    Assert.Equal(JsonRpcErrorCodes.InvalidRequest, element.Code);
                    Assert.True(element.Id.IsNone);
                });
                break;
            case "batch":
                var batch = Assert.IsType<JsonRpcBatch>(message).Messages;
                Assert.Equal(6, batch.Count);
                AssertRequest(batch[0], "1", "sum", "[1,2,4]");
                AssertNotification(batch[1], "notify_hello", "[7]");
                AssertRequest(batch[2], "2", "subtract", "[42,23]");
                Assert.Equal(JsonRpcErrorCodes.InvalidRequest, Assert.IsType<JsonRpcInvalidMessage>(batch[3]).Code);
                AssertRequest(batch[4], "5", "foo.get", """{"name": "myself"}""");
                AssertRequest(batch[5], "9", "get_data", null);
                break;
            case "batch_all_notifications":
                var notifications = Assert.IsType<JsonRpcBatch>(message).Messages;
                Assert.Equal(2, notifications.Count);
                AssertNotification(notifications[0], "notify_sum", "[1,2,4]");
                AssertNotification(notifications[1], "notify_hello", "[7]");
                break;
            default:
                throw new Xunit.Sdk.XunitException($"{name} should not have been read.");
        }
    }

    [Theory]
    [MemberData(nameof(NamesWithResponse))]
    public void Read_SpecResponse_ParsesAsResponsesAndWritesBackJsonEqual(string name)
    {
        var response = Examples[name].Response!;
        var message = JsonRpcMessage.Parse(response);
        var answers = message is JsonRpcBatch batch ? batch.Messages : [message];
        Assert.All(answers, m => Assert.True(m.Kind is JsonRpcMessageKind.Response or JsonRpcMessageKind.Error));
        JsonAssert.Equal(response, message.ToUtf8Bytes());
    }

    private static void AssertAnswer(SpecExample example, JsonRpcMessage? answer)
    {
        if (example.Response is null)
        {
            Assert.Null(answer);
            return;
        }

        Assert.NotNull(answer);
        JsonAssert.Equal(example.Response, answer.ToUtf8Bytes(), topLevelArrayAsMultiset: true);
        JsonAssert.Equal(example.Response, JsonSerializer.SerializeToUtf8Bytes(answer, JsonRpcJsonContext.Default.JsonRpcMessage), topLevelArrayAsMultiset: true);
    }

    private static void AssertRequest(JsonRpcMessage message, RequestId id, string method, string? @params)
    {
        var request = Assert.IsType<JsonRpcRequest>(message);
        Assert.Equal(id, request.Id);
        Assert.Equal(method, request.Method);
        Assert.Equal(@params ?? string.Empty, request.Params.ToString());
    }

    private static void AssertNotification(JsonRpcMessage message, string method, string? @params)
    {
        var notification = Assert.IsType<JsonRpcNotification>(message);
        Assert.Equal(method, notification.Method);
        Assert.Equal(@params ?? string.Empty, notification.Params.ToString());
    }

    private static Dictionary<string, SpecExample> Load()
    {
        var examples = new Dictionary<string, SpecExample>();
        foreach (var line in File.ReadLines(ConformanceFiles.SpecExamples))
        {
            if (line.Length == 0)
            {
                continue;
            }

            using var document = JsonDocument.Parse(line);
            var root = document.RootElement;
            var response = root.GetProperty("response");
            examples.Add(
                root.GetProperty("name").GetString()!,
                new SpecExample(
                    Encoding.UTF8.GetBytes(root.GetProperty("request").GetString()!),
                    response.ValueKind == JsonValueKind.Null ? null : response.GetString()));
        }

        return examples;
    }

    private sealed record SpecExample(byte[] Request, string? Response);
}
