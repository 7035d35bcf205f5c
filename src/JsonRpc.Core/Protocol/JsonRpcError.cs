using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>A failed answer: <c>{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}</c>.</summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcError>))]
public sealed class JsonRpcError : JsonRpcMessage
{
    /// <summary>Creates an error answer.</summary>
    /// <param name="id">The id of the request answered, or <see cref="RequestId.Null"/> when it could not be read.</param>
    /// <param name="error">The error object.</param>
    public JsonRpcError(RequestId id, JsonRpcErrorDetail error)
    {
        ArgumentNullException.ThrowIfNull(error);
        Id = id.IsNone ? RequestId.Null : id;
        Error = error;
    }

    /// <summary>Creates an error answer from a code, a message and optional data.</summary>
    public JsonRpcError(RequestId id, int code, string message, RawJson data = default)
        : this(id, new JsonRpcErrorDetail(code, message, data))
    {
    }

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Error;

    /// <summary>The id of the request this answers; <see cref="RequestId.Null"/> when it could not be read.</summary>
    public RequestId Id { get; }

    /// <summary>The error object.</summary>
    public JsonRpcErrorDetail Error { get; }
}
