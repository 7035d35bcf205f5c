namespace JsonRpc.Core.Tests.Support;

/// <summary>Asserts that input is refused with one code and id on every read path and by the reader.</summary>
internal static class Refusal
{
    public static void Assert(string json, int code, RequestId id, int? maxDepth = null)
        => Assert(Encoding.UTF8.GetBytes(json), code, id, maxDepth);

    public static void Assert(byte[] utf8, int code, RequestId id, int? maxDepth = null)
    {
        var ok = maxDepth is { } depth
            ? JsonRpcMessageReader.TryRead(utf8, depth, out var info, out var error)
            : JsonRpcMessageReader.TryRead(utf8, out info, out error);
        Xunit.Assert.False(ok, "TryRead accepted the input.");
        Xunit.Assert.Equal(code, error.Code);
        Xunit.Assert.Equal(id, info.GetId(utf8));
        Xunit.Assert.Equal(JsonRpcMessageKind.Invalid, info.Kind);
        Xunit.Assert.False(string.IsNullOrEmpty(error.Detail));

        foreach (var path in MessageReading.AllPaths)
        {
            if (!MessageReading.Accepts(path, utf8))
            {
                continue;
            }

            try
            {
                MessageReading.Read(path, utf8, maxDepth);
                Xunit.Assert.Fail($"{path} accepted the input.");
            }
            catch (JsonRpcProtocolException ex)
            {
                Xunit.Assert.Equal(code, ex.ErrorCode);
                Xunit.Assert.Equal(id, ex.Id);
                var answer = ex.ToErrorResponse();
                Xunit.Assert.Equal(code, answer.Error.Code);
                Xunit.Assert.Equal(id.IsNone ? RequestId.Null : id, answer.Id);
            }
            catch (JsonException ex) when (code == JsonRpcErrorCodes.ParseError
                && (MessageReading.SerializerReadsAhead(path) || (MessageReading.IsSerializer(path) && !StartsWithToken(utf8))))
            {
                // The serializer refused the input itself before the converter ran: it holds no JSON token at all, or
                // the serializer found the syntax error while buffering ahead. Documented on JsonRpcMessageConverter.
                _ = ex;
            }
        }
    }

    private static bool StartsWithToken(byte[] utf8)
    {
        var reader = new Utf8JsonReader(utf8);
        try
        {
            return reader.Read();
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
