using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>
/// A converter written the old way: parse the message into a <see cref="JsonDocument"/>, find its kind with
/// <c>TryGetProperty</c>, then deserialize it a second time into the concrete message type. The two subclasses
/// differ only in how that second deserialization gets its input.
/// </summary>
internal abstract class BaselineMessageConverter : JsonConverter<BaselineMessage>
{
    public override BaselineMessage Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        using var document = JsonDocument.ParseValue(ref reader);
        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
        {
            throw new JsonException("A JSON-RPC message must be an object.");
        }

        if (!root.TryGetProperty("jsonrpc"u8, out var version) || version.ValueKind != JsonValueKind.String || !version.ValueEquals("2.0"u8))
        {
            throw new JsonException("\"jsonrpc\" must be \"2.0\".");
        }

        var context = BaselineJsonContext.Default;
        if (root.TryGetProperty("method"u8, out _))
        {
            return root.TryGetProperty("id"u8, out _)
                ? DeserializeAgain(root, context.BaselineRequest)
                : DeserializeAgain(root, context.BaselineNotification);
        }

        if (root.TryGetProperty("error"u8, out _))
        {
            return DeserializeAgain(root, context.BaselineError);
        }

        if (root.TryGetProperty("result"u8, out _))
        {
            return DeserializeAgain(root, context.BaselineResponse);
        }

        throw new JsonException("A message needs \"method\", \"result\" or \"error\".");
    }

    public override void Write(Utf8JsonWriter writer, BaselineMessage value, JsonSerializerOptions options)
    {
        var context = BaselineJsonContext.Default;
        switch (value)
        {
            case BaselineRequest request:
                JsonSerializer.Serialize(writer, request, context.BaselineRequest);
                break;
            case BaselineNotification notification:
                JsonSerializer.Serialize(writer, notification, context.BaselineNotification);
                break;
            case BaselineResponse response:
                JsonSerializer.Serialize(writer, response, context.BaselineResponse);
                break;
            case BaselineError error:
                JsonSerializer.Serialize(writer, error, context.BaselineError);
                break;
            default:
                throw new JsonException($"Unknown message type {value.GetType()}.");
        }
    }

    /// <summary>The second deserialization, from the parsed document's root element.</summary>
    protected abstract T DeserializeAgain<T>(JsonElement root, JsonTypeInfo<T> typeInfo)
        where T : BaselineMessage;
}
