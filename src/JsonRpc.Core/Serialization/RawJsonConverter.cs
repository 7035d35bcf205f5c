using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// Lets <see cref="RawJson"/> be a member of your own types: it reads the member's value as its exact bytes (checked
/// as strictly as a message) and writes them back untouched; an absent value writes <c>null</c>.
/// </summary>
public sealed class RawJsonConverter : JsonConverter<RawJson>
{
    /// <summary>A JSON <c>null</c> is a value like any other: it reaches <see cref="Read"/> and becomes <see cref="RawJson.Null"/>.</summary>
    public override bool HandleNull => true;

    /// <summary>Copies the current JSON value's exact bytes, checked as strictly as a message.</summary>
    /// <exception cref="JsonRpcProtocolException">The value has invalid UTF-8, a lone surrogate, a duplicate member name, or is nested too deep.</exception>
    public override RawJson Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var bytes = Utf8JsonReaderAccess.CopyValue(ref reader);
        var maxDepth = options.MaxDepth == 0 ? JsonRpcReaderOptions.DefaultMaxDepth : options.MaxDepth;
        if (!JsonRpcMessageReader.TryValidateValue(bytes, maxDepth, out _, out var error))
        {
            throw new JsonRpcProtocolException(error.Code, error.Detail);
        }

        return RawJson.FromTrustedUtf8(bytes);
    }

    /// <summary>Writes the bytes as they are; an absent value as <c>null</c>.</summary>
    public override void Write(Utf8JsonWriter writer, RawJson value, JsonSerializerOptions options) => WriteValue(writer, value);

    /// <summary>Writes the bytes as they are; absent as <c>null</c>.</summary>
    internal static void WriteValue(Utf8JsonWriter writer, RawJson value)
    {
        if (value.IsEmpty)
        {
            writer.WriteNullValue();
        }
        else
        {
            writer.WriteRawValue(value.Span, skipInputValidation: true);
        }
    }
}
