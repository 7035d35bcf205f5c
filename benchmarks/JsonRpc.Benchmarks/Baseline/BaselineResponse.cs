using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

public sealed class BaselineResponse : BaselineMessage
{
    [JsonPropertyName("id")]
    public BaselineRequestId Id { get; init; }

    [JsonPropertyName("result")]
    public JsonElement Result { get; init; }
}
