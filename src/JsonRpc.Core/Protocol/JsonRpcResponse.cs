using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>A successful answer: <c>{"jsonrpc":"2.0","id":…,"result":…}</c>.</summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcResponse>))]
public sealed class JsonRpcResponse : JsonRpcMessage
{
    /// <summary>Creates a response.</summary>
    /// <param name="id">The id of the request answered; not <see cref="RequestId.None"/>.</param>
    /// <param name="result">The result: any JSON value, <see cref="RawJson.Null"/> included, but not absent.</param>
    public JsonRpcResponse(RequestId id, RawJson result)
    {
        if (id.IsNone)
        {
            throw new ArgumentException("A response must carry the id of the request it answers.", nameof(id));
        }

        if (result.IsEmpty)
        {
            throw new ArgumentException("A response needs a result; use RawJson.Null for a null result.", nameof(result));
        }

        Id = id;
        Result = result;
    }

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Response;

    /// <summary>The id of the request this answers.</summary>
    public RequestId Id { get; }

    /// <summary>The result, exactly as received.</summary>
    public RawJson Result { get; }
}
