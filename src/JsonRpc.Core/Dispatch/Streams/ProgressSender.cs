using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Buffers;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch.Streams;

/// <summary>Sends each report at once to the caller as a progress notification for its token (see <see cref="JsonRpcProgressStyle"/>).</summary>
internal sealed class ProgressSender<T>(JsonRpcPeerChannel peer, byte[] token, JsonRpcProgressStyle style, JsonTypeInfo<T> valueType) : IProgress<T>
{
    public void Report(T value)
    {
        using var buffer = new PooledBufferWriter();
        using (var writer = new Utf8JsonWriter(buffer, JsonRpcMessageWriter.WriterOptions))
        {
            writer.WriteStartObject();
            writer.WriteString("jsonrpc"u8, "2.0"u8);
            switch (style)
            {
                case JsonRpcProgressStyle.Positional:
                    writer.WriteString("method"u8, "$/progress"u8);
                    writer.WriteStartArray("params"u8);
                    writer.WriteRawValue(token, skipInputValidation: true);
                    JsonSerializer.Serialize(writer, value, valueType);
                    writer.WriteEndArray();
                    break;
                case JsonRpcProgressStyle.Named:
                    writer.WriteString("method"u8, "$/progress"u8);
                    writer.WriteStartObject("params"u8);
                    writer.WritePropertyName("token"u8);
                    writer.WriteRawValue(token, skipInputValidation: true);
                    writer.WritePropertyName("value"u8);
                    JsonSerializer.Serialize(writer, value, valueType);
                    writer.WriteEndObject();
                    break;
                default:
                    writer.WriteString("method"u8, "notifications/progress"u8);
                    writer.WriteStartObject("params"u8);
                    writer.WritePropertyName("progressToken"u8);
                    writer.WriteRawValue(token, skipInputValidation: true);
                    WriteMcpMembers(writer, JsonSerializer.SerializeToUtf8Bytes(value, valueType));
                    writer.WriteEndObject();
                    break;
            }

            writer.WriteEndObject();
        }

        peer.TrySend(buffer.WrittenSpan);
    }

    // An object's members follow the token (its own progressToken, if any, is the caller's to set: skipped); any other value is "progress".
    private static void WriteMcpMembers(Utf8JsonWriter writer, ReadOnlySpan<byte> value)
    {
        var reader = new Utf8JsonReader(value);
        reader.Read();
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            writer.WritePropertyName("progress"u8);
            writer.WriteRawValue(value, skipInputValidation: true);
            return;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var skip = reader.ValueTextEquals("progressToken"u8);
            var name = reader.ValueSpan;
            var unescaped = reader.ValueIsEscaped ? reader.GetString() : null;
            reader.Read();
            var start = (int)reader.TokenStartIndex;
            reader.Skip();
            if (!skip)
            {
                if (unescaped is not null)
                {
                    writer.WritePropertyName(unescaped);
                }
                else
                {
                    writer.WritePropertyName(name);
                }

                writer.WriteRawValue(value[start..(int)reader.BytesConsumed], skipInputValidation: true);
            }
        }
    }
}
