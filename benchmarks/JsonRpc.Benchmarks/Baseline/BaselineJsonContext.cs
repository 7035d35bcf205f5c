using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>
/// Source-generated metadata for the baseline model, so that the baseline pays for its design (a document, then a
/// second deserialization), not for reflection.
/// </summary>
[JsonSerializable(typeof(BaselineMessage))]
[JsonSerializable(typeof(BaselineMessage[]))]
[JsonSerializable(typeof(BaselineRequest))]
[JsonSerializable(typeof(BaselineNotification))]
[JsonSerializable(typeof(BaselineResponse))]
[JsonSerializable(typeof(BaselineError))]
internal sealed partial class BaselineJsonContext : JsonSerializerContext;
