using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>Reads and writes <see cref="BaselineRequestId"/> as a JSON number, string or null.</summary>
internal sealed class BaselineRequestIdConverter : JsonConverter<BaselineRequestId>
{
    public override bool HandleNull => true;

    public override BaselineRequestId Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        => reader.TokenType switch
        {
            JsonTokenType.Number => new BaselineRequestId(reader.GetInt64()),
            JsonTokenType.String => new BaselineRequestId(reader.GetString()),
            JsonTokenType.Null => BaselineRequestId.Null,
            _ => throw new JsonException("\"id\" must be a string, a number or null."),
        };

    public override void Write(Utf8JsonWriter writer, BaselineRequestId value, JsonSerializerOptions options)
    {
        if (value.IsNull)
        {
            writer.WriteNullValue();
        }
        else if (value.Text is { } text)
        {
            writer.WriteStringValue(text);
        }
        else
        {
            writer.WriteNumberValue(value.Number);
        }
    }
}
