namespace JsonRpc.Core.Tests.Support;

/// <summary>
/// The server the spec's examples talk to (subtract, sum, get_data; notify_* and update are notifications), built on
/// the message objects or on the allocation-free reader. Used to write the responses the spec expects.
/// </summary>
internal static class SpecServer
{
    /// <summary>Answers a parsed message; null when nothing is answered (notifications).</summary>
    public static JsonRpcMessage? Answer(JsonRpcMessage message) => message switch
    {
        JsonRpcRequest request => Call(request.Id, request.Method, request.Params),
        JsonRpcNotification => null,
        JsonRpcInvalidMessage invalid => invalid.ToErrorResponse(),
        JsonRpcBatch batch => AnswerBatch(batch),
        _ => throw new InvalidOperationException($"The spec's server receives no {message.Kind}."),
    };

    /// <summary>Reads raw bytes through <paramref name="path"/> and answers them, as a server would.</summary>
    public static JsonRpcMessage? Answer(ReadPath path, byte[] utf8)
    {
        try
        {
            return Answer(MessageReading.Read(path, utf8));
        }
        catch (JsonRpcProtocolException ex)
        {
            return ex.ToErrorResponse();
        }
        catch (System.Text.Json.JsonException) when (MessageReading.SerializerReadsAhead(path))
        {
            // The serializer found a syntax error while buffering the value, before calling the converter.
            return new JsonRpcError(RequestId.Null, JsonRpcErrorDetail.FromCode(JsonRpcErrorCodes.ParseError));
        }
    }

    /// <summary>Answers raw bytes through <see cref="JsonRpcMessageReader"/> only: no message objects are read.</summary>
    public static JsonRpcMessage? AnswerWithReader(byte[] utf8)
    {
        if (!JsonRpcMessageReader.TryRead(utf8, out var info, out var error))
        {
            return new JsonRpcError(info.GetId(utf8), JsonRpcErrorDetail.FromCode(error.Code));
        }

        if (info.Kind != JsonRpcMessageKind.Batch)
        {
            return AnswerElement(utf8, in info);
        }

        var answers = new List<JsonRpcMessage>();
        foreach (var range in JsonRpcMessageReader.EnumerateBatch(utf8))
        {
            var element = utf8[range];
            var answer = JsonRpcMessageReader.TryReadBatchElement(element, out var elementInfo, out var elementError)
                ? AnswerElement(element, in elementInfo)
                : new JsonRpcError(elementInfo.GetId(element), JsonRpcErrorDetail.FromCode(elementError.Code));
            if (answer is not null)
            {
                answers.Add(answer);
            }
        }

        Assert.Equal(info.BatchCount, CountElements(utf8));
        return answers.Count == 0 ? null : new JsonRpcBatch(answers);
    }

    private static int CountElements(byte[] batch)
    {
        var count = 0;
        foreach (var unused in JsonRpcMessageReader.EnumerateBatch(batch))
        {
            count++;
        }

        return count;
    }

    private static JsonRpcMessage? AnswerElement(byte[] utf8, in JsonRpcMessageInfo info)
    {
        if (info.Kind == JsonRpcMessageKind.Notification)
        {
            return null;
        }

        Assert.Equal(JsonRpcMessageKind.Request, info.Kind);
        Span<byte> scratch = stackalloc byte[64];
        var method = Encoding.UTF8.GetString(info.GetMethod(utf8, scratch));
        var @params = info.HasParams ? RawJson.FromUtf8(utf8.AsMemory(info.Params)) : default;
        return Call(info.GetId(utf8), method, @params);
    }

    private static JsonRpcBatch? AnswerBatch(JsonRpcBatch batch)
    {
        var answers = new List<JsonRpcMessage>();
        foreach (var message in batch.Messages)
        {
            if (Answer(message) is { } answer)
            {
                answers.Add(answer);
            }
        }

        return answers.Count == 0 ? null : new JsonRpcBatch(answers);
    }

    private static JsonRpcMessage Call(RequestId id, string method, RawJson @params)
    {
        switch (method)
        {
            case "subtract" when @params.ValueKind == System.Text.Json.JsonValueKind.Array:
                var pair = @params.Deserialize(TestJsonContext.Default.Int32Array)!;
                return Result(id, pair[0] - pair[1]);
            case "subtract":
                var named = @params.Deserialize(TestJsonContext.Default.DictionaryStringInt32)!;
                return Result(id, named["minuend"] - named["subtrahend"]);
            case "sum":
                return Result(id, @params.Deserialize(TestJsonContext.Default.Int32Array)!.Sum());
            case "get_data":
                return new JsonRpcResponse(id, RawJson.Parse("""["hello", 5]"""));
            default:
                return new JsonRpcError(id, JsonRpcErrorDetail.FromCode(JsonRpcErrorCodes.MethodNotFound));
        }
    }

    private static JsonRpcResponse Result(RequestId id, int value) => new(id, RawJson.From(value, TestJsonContext.Default.Int32));
}
