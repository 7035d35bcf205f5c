using System.Text.Json.Serialization;

namespace JsonRpc.Core.Tests.Support;

/// <summary>Messages as members of an application type, as a user's own model would hold them.</summary>
public sealed class Envelope
{
    public JsonRpcMessage? First { get; set; }

    public List<JsonRpcMessage>? Second { get; set; }

    public int After { get; set; }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(Envelope))]
internal sealed partial class ConverterTestContext : JsonSerializerContext;
