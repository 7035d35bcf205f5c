using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// Source-generated serialization metadata for the message types, for trimmed and native AOT applications:
/// <c>JsonSerializer.Serialize(message, JsonRpcJsonContext.Default.JsonRpcMessage)</c>.
/// </summary>
[JsonSerializable(typeof(JsonRpcMessage))]
[JsonSerializable(typeof(JsonRpcRequest))]
[JsonSerializable(typeof(JsonRpcNotification))]
[JsonSerializable(typeof(JsonRpcResponse))]
[JsonSerializable(typeof(JsonRpcError))]
[JsonSerializable(typeof(JsonRpcBatch))]
[JsonSerializable(typeof(string))]
public sealed partial class JsonRpcJsonContext : JsonSerializerContext;
