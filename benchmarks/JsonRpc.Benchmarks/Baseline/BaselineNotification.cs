using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

public sealed class BaselineNotification : BaselineMessage
{
    [JsonPropertyName("method")]
    public required string Method { get; init; }

    [JsonPropertyName("params")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public JsonElement? Params { get; init; }
}
