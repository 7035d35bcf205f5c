using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>
/// A batch element that is not a valid message (for example the <c>1</c> in <c>[1]</c>). It carries the error to
/// answer with and the id, when one could be read. It cannot be written: answer it with <see cref="ToErrorResponse"/>.
/// </summary>
/// <remarks>
/// It carries the message converter so that serializing one by its runtime type fails clearly rather than writing its
/// properties as if it were a message.
/// </remarks>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcInvalidMessage>))]
public sealed class JsonRpcInvalidMessage : JsonRpcMessage
{
    internal JsonRpcInvalidMessage(RequestId id, int code, string detail)
    {
        Id = id;
        Code = code;
        Detail = detail;
    }

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Invalid;

    /// <summary>The element's id when it could be read; otherwise <see cref="RequestId.None"/>.</summary>
    public RequestId Id { get; }

    /// <summary>The error code to answer with (<see cref="JsonRpcErrorCodes.InvalidRequest"/>).</summary>
    public int Code { get; }

    /// <summary>What is wrong with the element.</summary>
    public string Detail { get; }

    /// <summary>The error answer for this element, with the spec's message for the code.</summary>
    public JsonRpcError ToErrorResponse() => new(Id, JsonRpcErrorDetail.FromCode(Code));
}
