using System.Buffers;
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Lets <see cref="RequestId"/> be a member of your own types: a JSON number, string or null, kept exactly.</summary>
public sealed class RequestIdConverter : JsonConverter<RequestId>
{
    /// <summary>A JSON <c>null</c> reaches <see cref="Read"/> and becomes <see cref="RequestId.Null"/>, not the absent id.</summary>
    public override bool HandleNull => true;

    /// <summary>Reads a JSON number (kept as its exact text), string or null.</summary>
    /// <exception cref="JsonException">The value is an object, array or boolean.</exception>
    public override RequestId Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.Null:
                return RequestId.Null;
            case JsonTokenType.Number:
                return RequestId.FromValidatedNumber(reader.HasValueSequence ? reader.ValueSequence.ToArray() : reader.ValueSpan);
            case JsonTokenType.String:
                return new RequestId(reader.GetString()!);
            default:
                throw new JsonException("A request id must be a JSON number, string or null.");
        }
    }

    /// <summary>Writes the id as it was read: the same number text, string or null.</summary>
    public override void Write(Utf8JsonWriter writer, RequestId value, JsonSerializerOptions options) => value.WriteTo(writer);
}
