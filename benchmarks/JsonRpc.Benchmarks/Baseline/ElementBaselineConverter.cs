using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>The baseline without <c>GetRawText()</c>: the second deserialization reads the document's element directly.</summary>
internal sealed class ElementBaselineConverter : BaselineMessageConverter
{
    protected override T DeserializeAgain<T>(JsonElement root, JsonTypeInfo<T> typeInfo)
        => root.Deserialize(typeInfo) ?? throw new JsonException("The message is null.");
}
