using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

public sealed class BaselineError : BaselineMessage
{
    [JsonPropertyName("id")]
    public BaselineRequestId Id { get; init; }

    [JsonPropertyName("error")]
    public required BaselineErrorDetail Error { get; init; }
}
