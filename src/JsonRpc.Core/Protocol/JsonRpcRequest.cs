using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>A call that expects an answer: <c>{"jsonrpc":"2.0","id":…,"method":…,"params":…}</c>.</summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcRequest>))]
public sealed class JsonRpcRequest : JsonRpcMessage
{
    /// <summary>Creates a request.</summary>
    /// <param name="id">The id; a number, a string or <see cref="RequestId.Null"/> (discouraged by the spec), never <see cref="RequestId.None"/>.</param>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object or array, or <see cref="RawJson.Absent"/>.</param>
    public JsonRpcRequest(RequestId id, string method, RawJson @params = default)
    {
        if (id.IsNone)
        {
            throw new ArgumentException("A request needs an id; a call without one is a JsonRpcNotification.", nameof(id));
        }

        ArgumentNullException.ThrowIfNull(method);
        ThrowHelper.ThrowIfNotStructured(@params, nameof(@params));
        Id = id;
        Method = method;
        Params = @params;
    }

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Request;

    /// <summary>The id the answer must carry.</summary>
    public RequestId Id { get; }

    /// <summary>The method name.</summary>
    public string Method { get; }

    /// <summary>The parameters: a JSON object or array, or absent.</summary>
    public RawJson Params { get; }
}
