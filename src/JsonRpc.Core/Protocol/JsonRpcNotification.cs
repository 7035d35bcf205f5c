using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>A call without an answer: <c>{"jsonrpc":"2.0","method":…,"params":…}</c>, with no <c>id</c> member.</summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcNotification>))]
public sealed class JsonRpcNotification : JsonRpcMessage
{
    /// <summary>Creates a notification.</summary>
    /// <param name="method">The method (or event) name.</param>
    /// <param name="params">A JSON object or array, or <see cref="RawJson.Absent"/>.</param>
    public JsonRpcNotification(string method, RawJson @params = default)
    {
        ArgumentNullException.ThrowIfNull(method);
        ThrowHelper.ThrowIfNotStructured(@params, nameof(@params));
        Method = method;
        Params = @params;
    }

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Notification;

    /// <summary>The method name.</summary>
    public string Method { get; }

    /// <summary>The parameters: a JSON object or array, or absent.</summary>
    public RawJson Params { get; }
}
