using System.Text.Json;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>
/// Protocol extensions shared with LSP and StreamJsonRpc. Method names that start with <c>$/</c> are reserved for them:
/// the router and <c>JsonRpcClient</c> refuse to register methods or events under such names.
/// </summary>
public static class JsonRpcProtocolMethods
{
    /// <summary>The prefix of reserved method names: <c>$/</c>.</summary>
    public const string ReservedPrefix = "$/";

    /// <summary>
    /// <c>$/cancelRequest {"id": …}</c>, a notification: the sender no longer needs the answer to its own request of that
    /// id (number, string or null, exactly as the request wrote it). The receiver cancels the handler's token; the call
    /// is still answered, with its result or with <see cref="JsonRpcErrorCodes.RequestCancelled"/>.
    /// </summary>
    public const string CancelRequest = "$/cancelRequest";

    /// <summary><see cref="CancelRequest"/> as UTF-8.</summary>
    public static ReadOnlySpan<byte> CancelRequestUtf8 => "$/cancelRequest"u8;

    /// <summary>Whether <paramref name="method"/> starts with <see cref="ReservedPrefix"/>.</summary>
    public static bool IsReserved(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return method.StartsWith(ReservedPrefix, StringComparison.Ordinal);
    }

    /// <summary>Whether the UTF-8 method name starts with <see cref="ReservedPrefix"/>.</summary>
    public static bool IsReserved(ReadOnlySpan<byte> utf8Method) => utf8Method.StartsWith("$/"u8);

    /// <summary>Whether a message the reader accepted is a <see cref="CancelRequest"/> (request or notification). Allocates nothing.</summary>
    public static bool IsCancelRequest(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (!info.HasMethod)
        {
            return false;
        }

        var raw = message[info.Method];
        if (!info.MethodIsEscaped)
        {
            return raw.SequenceEqual(CancelRequestUtf8);
        }

        // Escaped: at most six bytes (\uXXXX) per character of the 15 that would match.
        Span<byte> scratch = stackalloc byte[96];
        return raw.Length <= scratch.Length && info.GetMethod(message, scratch).SequenceEqual(CancelRequestUtf8);
    }

    /// <summary>
    /// Reads the id from the params of a <see cref="CancelRequest"/>: an object whose <c>id</c> member is a number, a
    /// string or null. False for anything else (no params, an array, a missing id, an id of another type, invalid JSON).
    /// Never throws.
    /// </summary>
    public static bool TryReadCancelRequestId(ReadOnlySpan<byte> @params, out RequestId id)
    {
        id = RequestId.None;
        if (@params.IsEmpty)
        {
            return false;
        }

        try
        {
            var reader = new Utf8JsonReader(@params);
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return false;
            }

            var found = false;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var isId = reader.ValueTextEquals("id"u8);
                reader.Read();
                if (!isId)
                {
                    reader.Skip();
                    continue;
                }

                if (found)
                {
                    return false; // two ids: which one is meant cannot be told
                }

                var start = (int)reader.TokenStartIndex;
                var end = reader.TokenType == JsonTokenType.String
                    ? (int)reader.BytesConsumed
                    : start + (reader.HasValueSequence ? (int)reader.ValueSequence.Length : reader.ValueSpan.Length);
                if (reader.TokenType is not (JsonTokenType.Number or JsonTokenType.String or JsonTokenType.Null)
                    || !RequestId.TryParse(@params[start..end], out id))
                {
                    return false;
                }

                found = true;
            }

            return found;
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
