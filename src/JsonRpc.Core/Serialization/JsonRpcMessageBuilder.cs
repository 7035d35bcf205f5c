using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Builds message objects from what the single forward pass saw.</summary>
internal static class JsonRpcMessageBuilder
{
    private static readonly Utf8StringCache ErrorMessages = new(256);

    /// <summary>Parses a whole input. With <paramref name="copyValues"/> false, raw values are slices of <paramref name="utf8"/>.</summary>
    /// <remarks>
    /// <paramref name="maxDepth"/> is a depth already checked (<see cref="JsonRpcReaderOptions.MaxDepth"/>) or the
    /// serializer's own, which may lie beyond <see cref="JsonRpcReaderOptions.MaxDepthLimit"/>.
    /// </remarks>
    public static JsonRpcMessage Parse(ReadOnlyMemory<byte> utf8, bool copyValues, int maxDepth)
    {
        var span = utf8.Span;
        var scanner = new JsonScanner(span);
        try
        {
            var reader = new Utf8JsonReader(span, new JsonReaderOptions { MaxDepth = maxDepth });
            if (!reader.Read())
            {
                ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.ParseError, "The input holds no JSON value.");
            }

            var message = ReadValue(ref reader, ref scanner, span, copyValues ? default : utf8, out var invalid, out var id);
            reader.Read(); // throws on anything but whitespace after the value
            if (invalid is not null)
            {
                ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.InvalidRequest, invalid, id);
            }

            return message!;
        }
        catch (Exception ex) when (ex is JsonException and not JsonRpcProtocolException or InvalidOperationException or ArgumentException)
        {
            throw new JsonRpcProtocolException(JsonRpcErrorCodes.ParseError, ex.Message);
        }
        finally
        {
            scanner.Dispose();
        }
    }

    /// <summary>
    /// Reads the message or batch whose first token the reader is on, leaving the reader on its last token.
    /// Returns null with <paramref name="invalid"/> set when it is not a valid message; throws a Parse error when the
    /// text is not acceptable JSON.
    /// </summary>
    /// <remarks><c>memory</c> is the memory behind <c>buffer</c> to slice raw values from; empty to copy them.</remarks>
    public static JsonRpcMessage? ReadValue(
        ref Utf8JsonReader reader,
        scoped ref JsonScanner scanner,
        ReadOnlySpan<byte> buffer,
        ReadOnlyMemory<byte> memory,
        out string? invalid,
        out RequestId id)
    {
        id = default;
        var start = reader.TokenStartIndex;
        switch (reader.TokenType)
        {
            case JsonTokenType.StartObject:
            {
                var info = default(JsonRpcMessageInfo);
                invalid = JsonRpcMessageReader.ReadMessageObject(ref reader, ref scanner, ref info);
                ThrowIfParseViolation(ref scanner, start, ref reader);
                if (invalid is not null)
                {
                    id = info.GetId(buffer);
                    return null;
                }

                return Build(in info, buffer, memory);
            }

            case JsonTokenType.StartArray:
            {
                var messages = new List<JsonRpcMessage>();
                while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                {
                    if (reader.TokenType == JsonTokenType.StartObject)
                    {
                        var info = default(JsonRpcMessageInfo);
                        var problem = JsonRpcMessageReader.ReadMessageObject(ref reader, ref scanner, ref info);
                        messages.Add(problem is null
                            ? Build(in info, buffer, memory)
                            : new JsonRpcInvalidMessage(info.GetId(buffer), JsonRpcErrorCodes.InvalidRequest, problem));
                    }
                    else
                    {
                        scanner.ScanValue(ref reader);
                        messages.Add(new JsonRpcInvalidMessage(default, JsonRpcErrorCodes.InvalidRequest, JsonRpcMessageReader.ElementNotAnObject));
                    }
                }

                ThrowIfParseViolation(ref scanner, start, ref reader);
                invalid = messages.Count == 0 ? "A batch must not be empty." : null;
                return invalid is null ? new JsonRpcBatch(messages.ToArray(), false) : null;
            }

            default:
                scanner.ScanValue(ref reader);
                ThrowIfParseViolation(ref scanner, start, ref reader);
                invalid = "A message must be a JSON object or a non-empty array of them.";
                return null;
        }
    }

    /// <summary>Ends the checks of the value read since <paramref name="start"/>: its UTF-8, then any Parse error found.</summary>
    private static void ThrowIfParseViolation(scoped ref JsonScanner scanner, long start, scoped ref Utf8JsonReader reader)
    {
        scanner.CheckUtf8(start, reader.BytesConsumed);
        if (scanner.ParseViolation is { } problem)
        {
            ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.ParseError, problem);
        }
    }

    private static JsonRpcMessage Build(in JsonRpcMessageInfo info, ReadOnlySpan<byte> buffer, ReadOnlyMemory<byte> memory)
    {
        switch (info.Kind)
        {
            case JsonRpcMessageKind.Request:
                return new JsonRpcRequest(info.GetId(buffer), GetMethod(in info, buffer), Raw(info._paramsStart, info._paramsLength, buffer, memory));
            case JsonRpcMessageKind.Notification:
                return new JsonRpcNotification(GetMethod(in info, buffer), Raw(info._paramsStart, info._paramsLength, buffer, memory));
            case JsonRpcMessageKind.Response:
                return new JsonRpcResponse(info.GetId(buffer), Raw(info._resultStart, info._resultLength, buffer, memory));
            default:
                var message = info._errorMessageIsEscaped
                    ? info.GetErrorMessage(buffer)
                    : ErrorMessages.GetOrAdd(buffer.Slice(info._errorMessageStart, info._errorMessageLength));
                var detail = new JsonRpcErrorDetail(info.ErrorCode, message, Raw(info._errorDataStart, info._errorDataLength, buffer, memory));
                return new JsonRpcError(info.GetId(buffer), detail);
        }
    }

    private static string GetMethod(in JsonRpcMessageInfo info, ReadOnlySpan<byte> buffer)
        => info.MethodIsEscaped
            ? JsonRpcMessageInfo.UnescapeString(buffer.Slice(info._methodStart - 1, info._methodLength + 2))
            : Utf8StringCache.Methods.GetOrAdd(buffer.Slice(info._methodStart, info._methodLength));

    private static RawJson Raw(int start, int length, ReadOnlySpan<byte> buffer, ReadOnlyMemory<byte> memory)
    {
        if (length == 0)
        {
            return default;
        }

        return RawJson.FromTrustedUtf8(memory.IsEmpty ? buffer.Slice(start, length).ToArray() : memory.Slice(start, length));
    }
}
