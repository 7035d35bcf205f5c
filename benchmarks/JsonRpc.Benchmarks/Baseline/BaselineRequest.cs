using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

public sealed class BaselineRequest : BaselineMessage
{
    [JsonPropertyName("id")]
    public BaselineRequestId Id { get; init; }

    [JsonPropertyName("method")]
    public required string Method { get; init; }

    [JsonPropertyName("params")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public JsonElement? Params { get; init; }
}
