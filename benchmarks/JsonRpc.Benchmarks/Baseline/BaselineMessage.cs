using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>
/// The baseline's own small message model, as JSON-RPC libraries wrote it before single-pass converters:
/// plain classes deserialized by System.Text.Json, params / result / error data kept as a <c>JsonElement</c>.
/// </summary>
public abstract class BaselineMessage
{
    [JsonPropertyName("jsonrpc")]
    public string JsonRpc { get; init; } = "2.0";
}
