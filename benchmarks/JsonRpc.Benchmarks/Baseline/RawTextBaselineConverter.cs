using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>
/// The baseline proper: <c>GetRawText()</c> turns the parsed message back into a string, which the serializer then
/// reads a second time (transcoding it to UTF-8 again) into the message type.
/// </summary>
internal sealed class RawTextBaselineConverter : BaselineMessageConverter
{
    protected override T DeserializeAgain<T>(JsonElement root, JsonTypeInfo<T> typeInfo)
        => JsonSerializer.Deserialize(root.GetRawText(), typeInfo) ?? throw new JsonException("The message is null.");
}
