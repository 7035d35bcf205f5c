using System.Diagnostics.CodeAnalysis;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Throws out of line so that hot methods stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void ThrowInvalidOperation_RawJsonEmpty()
        => throw new InvalidOperationException("The value is absent (RawJson.IsEmpty).");

    [DoesNotReturn]
    public static void ThrowInvalidOperation_CannotWriteInvalid()
        => throw new InvalidOperationException("A JsonRpcInvalidMessage cannot be written; write its ToErrorResponse() instead.");

    [DoesNotReturn]
    public static void ThrowProtocol(int code, string detail, RequestId id = default)
        => throw new JsonRpcProtocolException(code, detail, id);

    public static void ThrowIfNotStructured(RawJson value, string paramName)
    {
        if (!value.IsEmpty && value.ValueKind is not (System.Text.Json.JsonValueKind.Object or System.Text.Json.JsonValueKind.Array))
        {
            throw new ArgumentException("Params must be a JSON object or array.", paramName);
        }
    }
}
