using System.Runtime.CompilerServices;
using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// Reads a message's structure in one forward pass of <see cref="Utf8JsonReader"/> and allocates nothing: the kind,
/// the id, the method as UTF-8, and where params, result and error lie. For transports and routers that need no
/// objects; <see cref="JsonRpcMessage.Parse(ReadOnlyMemory{byte}, JsonRpcReaderOptions?)"/> and the converter build on it.
/// </summary>
public static partial class JsonRpcMessageReader
{
    /// <summary>
    /// Reads one message (or checks one batch) from its complete UTF-8 bytes. Returns false, with the error to answer,
    /// for input that is not JSON or not a valid message; <paramref name="info"/> then still carries the id when it
    /// could be read. Never throws for any input.
    /// </summary>
    /// <remarks>
    /// For a batch, <paramref name="info"/> gives <see cref="JsonRpcMessageKind.Batch"/> and the element count; the
    /// whole array has been checked as JSON, and <see cref="EnumerateBatch"/> then yields each element to read in turn
    /// with <see cref="TryReadBatchElement(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>.
    /// </remarks>
    public static bool TryRead(ReadOnlySpan<byte> message, out JsonRpcMessageInfo info, out JsonRpcReadError error)
        => TryRead(message, JsonRpcReaderOptions.DefaultMaxDepth, out info, out error);

    /// <inheritdoc cref="TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// <param name="message">The message's bytes.</param>
    /// <param name="maxDepth">The deepest nesting accepted, the message object itself counting as 1 (1 to 4096).</param>
    /// <param name="info">What was read.</param>
    /// <param name="error">Why the message was refused.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxDepth"/> is out of range (never for any input).</exception>
    public static bool TryRead(ReadOnlySpan<byte> message, int maxDepth, out JsonRpcMessageInfo info, out JsonRpcReadError error)
    {
        var elements = default(BatchElements);
        return TryRead(message, maxDepth, out info, out error, ref elements);
    }

    /// <summary>
    /// <see cref="TryRead(ReadOnlySpan{byte}, int, out JsonRpcMessageInfo, out JsonRpcReadError)"/>, which for a batch
    /// also reads each element as a message into <paramref name="elements"/> when that collects, in the same pass.
    /// </summary>
    internal static bool TryRead(ReadOnlySpan<byte> message, int maxDepth, out JsonRpcMessageInfo info, out JsonRpcReadError error, ref BatchElements elements)
    {
        JsonRpcReaderOptions.ThrowIfInvalidMaxDepth(maxDepth);
        info = default;
        var scanner = new JsonScanner(message);
        try
        {
            var reader = new Utf8JsonReader(message, new JsonReaderOptions { MaxDepth = maxDepth });
            if (!reader.Read())
            {
                error = new JsonRpcReadError(JsonRpcErrorCodes.ParseError, "The input holds no JSON value.");
                return false;
            }

            var invalid = reader.TokenType == JsonTokenType.StartObject
                ? ReadMessageObject(ref reader, ref scanner, ref info)
                : ReadOtherValue(ref reader, ref scanner, ref info, ref elements);

            if (reader.Read())
            {
                // Unreachable for a final block: the reader throws on anything but whitespace after the value.
                scanner.ParseViolation ??= "There is more than one JSON value.";
            }

            scanner.CheckUtf8(0, reader.BytesConsumed);

            if (scanner.ParseViolation is { } parse)
            {
                info = default;
                elements.Clear();
                error = new JsonRpcReadError(JsonRpcErrorCodes.ParseError, parse);
                return false;
            }

            if (invalid is not null)
            {
                info._kind = JsonRpcMessageKind.Invalid;
                error = new JsonRpcReadError(JsonRpcErrorCodes.InvalidRequest, invalid);
                return false;
            }

            error = default;
            return true;
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or ArgumentException)
        {
            info = default;
            elements.Clear();
            error = new JsonRpcReadError(JsonRpcErrorCodes.ParseError, ex.Message);
            return false;
        }
        finally
        {
            scanner.Dispose();
        }
    }

    /// <summary>A batch (checked whole, its elements counted) or a value that is no message at all.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static string? ReadOtherValue(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, ref JsonRpcMessageInfo info, ref BatchElements elements)
    {
        if (reader.TokenType == JsonTokenType.StartArray)
        {
            info._batchCount = elements.IsCollecting
                ? ReadBatchElements(ref reader, ref scanner, ref elements)
                : scanner.ScanArrayElements(ref reader);
            info._kind = JsonRpcMessageKind.Batch;
            // Duplicates inside an element make that element invalid, not the batch: TryRead on the element says so.
            return info._batchCount == 0 ? "A batch must not be empty." : null;
        }

        scanner.ScanValue(ref reader);
        return "A message must be a JSON object or a non-empty array of them.";
    }

    /// <summary>
    /// Checks that the bytes are exactly one strictly valid JSON value (of any kind), and finds where that value lies
    /// without the whitespace around it.
    /// </summary>
    internal static bool TryValidateValue(ReadOnlySpan<byte> value, int maxDepth, out Range range, out JsonRpcReadError error)
    {
        range = default;
        var scanner = new JsonScanner(value);
        try
        {
            var reader = new Utf8JsonReader(value, new JsonReaderOptions { MaxDepth = maxDepth });
            if (!reader.Read())
            {
                error = new JsonRpcReadError(JsonRpcErrorCodes.ParseError, "The input holds no JSON value.");
                return false;
            }

            var start = checked((int)reader.TokenStartIndex);
            scanner.ScanValue(ref reader);
            var end = checked((int)reader.BytesConsumed);
            reader.Read();
            scanner.CheckUtf8(0, reader.BytesConsumed);
            var problem = scanner.ParseViolation ?? scanner.DuplicateInValue;
            error = problem is null ? default : new JsonRpcReadError(
                scanner.ParseViolation is null ? JsonRpcErrorCodes.InvalidRequest : JsonRpcErrorCodes.ParseError, problem);
            range = start..end;
            return problem is null;
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or ArgumentException)
        {
            error = new JsonRpcReadError(JsonRpcErrorCodes.ParseError, ex.Message);
            return false;
        }
        finally
        {
            scanner.Dispose();
        }
    }

    /// <summary>
    /// The single forward pass over one message object. The reader starts on the StartObject token and ends on its
    /// EndObject. Offsets in <paramref name="info"/> are the reader's absolute positions. Returns why the object is not
    /// a valid message, or null; JSON syntax errors throw <see cref="JsonException"/> from the reader.
    /// </summary>
    /// <remarks>
    /// After a violation the pass goes on to the end of the object, so that a later syntax error still wins (the
    /// spec answers Parse error for any text that is not JSON) and the id is still found wherever it stands.
    /// </remarks>
    internal static string? ReadMessageObject(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, ref JsonRpcMessageInfo info)
    {
        string? invalid = null;
        var seen = Member.None;
        var idTwice = false;
        scanner.DuplicateInValue = null;
        scanner.EnterObject();
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            // The protocol's own members are told apart (escaped or not) by Identify, so a repeat of one shows in
            // `seen`; only other names need the scanner's comparison.
            var member = Identify(ref reader);
            if (member == Member.Unknown ? !scanner.CheckName(ref reader) : (seen & member) != 0)
            {
                invalid ??= "A member name appears twice in the message.";
            }

            if ((seen & member & Member.Id) != 0)
            {
                // Two ids: echoing either would answer one request while the peer logs another. The id is unreadable.
                idTwice = true;
            }

            seen |= member;
            reader.Read();
            switch (member)
            {
                case Member.JsonRpc:
                    if (reader.TokenType != JsonTokenType.String)
                    {
                        invalid ??= "\"jsonrpc\" must be the string \"2.0\".";
                        scanner.ScanValue(ref reader);
                    }
                    else
                    {
                        scanner.CheckString(ref reader);
                        if (!reader.ValueTextEquals(JsonRpcPropertyNames.VersionUtf8))
                        {
                            invalid ??= "\"jsonrpc\" must be exactly \"2.0\".";
                        }
                    }

                    break;

                case Member.Id:
                    ReadId(ref reader, ref scanner, ref info, ref invalid);
                    break;

                case Member.Method:
                    if (reader.TokenType == JsonTokenType.String)
                    {
                        scanner.CheckString(ref reader);
                        info._hasMethod = true;
                        info._methodStart = checked((int)reader.TokenStartIndex) + 1;
                        info._methodLength = reader.ValueSpan.Length;
                        info._methodIsEscaped = reader.ValueIsEscaped;
                    }
                    else
                    {
                        invalid ??= "\"method\" must be a string.";
                        scanner.ScanValue(ref reader);
                    }

                    break;

                case Member.Params:
                    if (reader.TokenType is not (JsonTokenType.StartObject or JsonTokenType.StartArray))
                    {
                        invalid ??= "\"params\" must be an object or an array.";
                    }

                    ReadRawValue(ref reader, ref scanner, out info._paramsStart, out info._paramsLength);
                    break;

                case Member.Result:
                    ReadRawValue(ref reader, ref scanner, out info._resultStart, out info._resultLength);
                    break;

                case Member.Error:
                    if (reader.TokenType == JsonTokenType.StartObject)
                    {
                        info._errorStart = checked((int)reader.TokenStartIndex);
                        ReadErrorObject(ref reader, ref scanner, ref info, ref invalid);
                        info._errorLength = checked((int)reader.BytesConsumed) - info._errorStart;
                    }
                    else
                    {
                        invalid ??= "\"error\" must be an object.";
                        ReadRawValue(ref reader, ref scanner, out info._errorStart, out info._errorLength);
                    }

                    break;

                default:
                    scanner.ScanValue(ref reader);
                    break;
            }
        }

        scanner.ExitObject();
        if (idTwice)
        {
            info._idKind = RequestIdKind.None;
            info._idIsInt64 = false;
            info._idIsEscaped = false;
            info._idInt64 = 0;
            info._idStart = info._idLength = 0;
        }

        invalid ??= scanner.DuplicateInValue;
        invalid ??= Classify(seen, ref info);
        if (invalid is not null)
        {
            info._kind = JsonRpcMessageKind.Invalid;
        }

        return invalid;
    }

    private static string? Classify(Member seen, ref JsonRpcMessageInfo info)
    {
        if ((seen & Member.JsonRpc) == 0)
        {
            return "The \"jsonrpc\": \"2.0\" member is missing.";
        }

        if ((seen & Member.Method) != 0)
        {
            if ((seen & (Member.Result | Member.Error)) != 0)
            {
                return "A message cannot have both \"method\" and \"result\" or \"error\".";
            }

            info._kind = (seen & Member.Id) != 0 ? JsonRpcMessageKind.Request : JsonRpcMessageKind.Notification;
            return null;
        }

        switch (seen & (Member.Result | Member.Error))
        {
            case Member.Result | Member.Error:
                return "A response cannot have both \"result\" and \"error\".";
            case 0:
                return "A message needs \"method\", \"result\" or \"error\".";
        }

        if ((seen & Member.Id) == 0)
        {
            return "A response must have an \"id\" member.";
        }

        info._kind = (seen & Member.Result) != 0 ? JsonRpcMessageKind.Response : JsonRpcMessageKind.Error;
        return null;
    }

    private static void ReadId(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, ref JsonRpcMessageInfo info, ref string? invalid)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                scanner.CheckString(ref reader);
                info._idKind = RequestIdKind.String;
                info._idIsEscaped = reader.ValueIsEscaped;
                info._idStart = checked((int)reader.TokenStartIndex);
                info._idLength = reader.ValueSpan.Length + 2;
                break;
            case JsonTokenType.Number:
                info._idKind = RequestIdKind.Number;
                info._idStart = checked((int)reader.TokenStartIndex);
                info._idLength = reader.ValueSpan.Length;
                info._idIsInt64 = RequestId.TryParseCanonicalInt64(reader.ValueSpan, out info._idInt64);
                break;
            case JsonTokenType.Null:
                info._idKind = RequestIdKind.Null;
                info._idStart = checked((int)reader.TokenStartIndex);
                info._idLength = 4;
                break;
            default:
                invalid ??= "\"id\" must be a string, a number or null.";
                scanner.ScanValue(ref reader);
                break;
        }
    }

    private static void ReadErrorObject(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, ref JsonRpcMessageInfo info, ref string? invalid)
    {
        var hasCode = false;
        var hasMessage = false;
        scanner.EnterObject();
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (!scanner.CheckName(ref reader))
            {
                invalid ??= "A member name appears twice in the error object.";
            }

            var member = IdentifyErrorMember(ref reader);
            if (member == ErrorMember.Code)
            {
                reader.Read();
                if (reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out info._errorCode))
                {
                    hasCode = true;
                }
                else
                {
                    invalid ??= "\"error.code\" must be an integer.";
                    scanner.ScanValue(ref reader);
                }
            }
            else if (member == ErrorMember.Message)
            {
                reader.Read();
                if (reader.TokenType == JsonTokenType.String)
                {
                    scanner.CheckString(ref reader);
                    hasMessage = true;
                    info._errorMessageStart = checked((int)reader.TokenStartIndex) + 1;
                    info._errorMessageLength = reader.ValueSpan.Length;
                    info._errorMessageIsEscaped = reader.ValueIsEscaped;
                }
                else
                {
                    invalid ??= "\"error.message\" must be a string.";
                    scanner.ScanValue(ref reader);
                }
            }
            else if (member == ErrorMember.Data)
            {
                reader.Read();
                ReadRawValue(ref reader, ref scanner, out info._errorDataStart, out info._errorDataLength);
            }
            else
            {
                reader.Read();
                scanner.ScanValue(ref reader);
            }
        }

        scanner.ExitObject();
        if (!hasCode || !hasMessage)
        {
            invalid ??= "The error object needs an integer \"code\" and a string \"message\".";
        }
    }

    private static ErrorMember IdentifyErrorMember(ref Utf8JsonReader reader)
    {
        if (!reader.ValueIsEscaped)
        {
            var name = reader.ValueSpan;
            return name.Length switch
            {
                4 when name.SequenceEqual(JsonRpcPropertyNames.CodeUtf8) => ErrorMember.Code,
                4 when name.SequenceEqual(JsonRpcPropertyNames.DataUtf8) => ErrorMember.Data,
                7 when name.SequenceEqual(JsonRpcPropertyNames.MessageUtf8) => ErrorMember.Message,
                _ => ErrorMember.Unknown,
            };
        }

        return reader.ValueTextEquals(JsonRpcPropertyNames.CodeUtf8) ? ErrorMember.Code
            : reader.ValueTextEquals(JsonRpcPropertyNames.MessageUtf8) ? ErrorMember.Message
            : reader.ValueTextEquals(JsonRpcPropertyNames.DataUtf8) ? ErrorMember.Data
            : ErrorMember.Unknown;
    }

    private static void ReadRawValue(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, out int start, out int length)
    {
        start = checked((int)reader.TokenStartIndex);
        scanner.ScanValue(ref reader);
        length = checked((int)reader.BytesConsumed) - start;
    }

    private static Member Identify(ref Utf8JsonReader reader)
    {
        // Unescaped names (all real traffic) are told apart by length and first byte; escaped ones take the slow road.
        if (!reader.ValueIsEscaped)
        {
            var name = reader.ValueSpan;
            return name.Length switch
            {
                2 when name.SequenceEqual(JsonRpcPropertyNames.IdUtf8) => Member.Id,
                5 when name.SequenceEqual(JsonRpcPropertyNames.ErrorUtf8) => Member.Error,
                6 when name[0] == (byte)'m' && name.SequenceEqual(JsonRpcPropertyNames.MethodUtf8) => Member.Method,
                6 when name[0] == (byte)'p' && name.SequenceEqual(JsonRpcPropertyNames.ParamsUtf8) => Member.Params,
                6 when name[0] == (byte)'r' && name.SequenceEqual(JsonRpcPropertyNames.ResultUtf8) => Member.Result,
                7 when name.SequenceEqual(JsonRpcPropertyNames.JsonRpcUtf8) => Member.JsonRpc,
                _ => Member.Unknown,
            };
        }

        return reader.ValueTextEquals(JsonRpcPropertyNames.JsonRpcUtf8) ? Member.JsonRpc
            : reader.ValueTextEquals(JsonRpcPropertyNames.IdUtf8) ? Member.Id
            : reader.ValueTextEquals(JsonRpcPropertyNames.MethodUtf8) ? Member.Method
            : reader.ValueTextEquals(JsonRpcPropertyNames.ParamsUtf8) ? Member.Params
            : reader.ValueTextEquals(JsonRpcPropertyNames.ResultUtf8) ? Member.Result
            : reader.ValueTextEquals(JsonRpcPropertyNames.ErrorUtf8) ? Member.Error
            : Member.Unknown;
    }

    private enum ErrorMember : byte
    {
        Unknown,
        Code,
        Message,
        Data,
    }

    [Flags]
    private enum Member : byte
    {
        None = 0,
        Unknown = 0, // unknown members are skipped and leave no mark
        JsonRpc = 1,
        Id = 2,
        Method = 4,
        Params = 8,
        Result = 16,
        Error = 32,
    }
}
