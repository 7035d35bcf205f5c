using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

public sealed class BaselineErrorDetail
{
    [JsonPropertyName("code")]
    public int Code { get; init; }

    [JsonPropertyName("message")]
    public required string Message { get; init; }

    [JsonPropertyName("data")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public JsonElement? Data { get; init; }
}
