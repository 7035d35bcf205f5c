using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>
/// Sends each report to the peer as <c>$/progress</c> for the peer's token, <c>[token, value]</c> (StreamJsonRpc) or
/// <c>{"token": …, "value": …}</c> (LSP), queued at once so that reports made before a handler returns go before its
/// answer. A report made while the connection is backed up (the peer is not reading), or while there is none, is
/// dropped rather than held: progress is advisory, and memory stays bounded.
/// </summary>
internal sealed class ProgressReporter<T>(JsonRpcClient client, byte[] token, JsonTypeInfo<T> valueType, bool named) : IProgress<T>
{
    public void Report(T value)
    {
        if (client.ConnectionForProgress() is not { } connection)
        {
            return;
        }

        var buffer = MessageBuffer.Rent();
        var writer = buffer.JsonWriter;
        writer.WriteStartObject();
        writer.WriteString("jsonrpc"u8, "2.0"u8);
        writer.WriteString("method"u8, "$/progress"u8);
        if (named)
        {
            writer.WriteStartObject("params"u8);
            writer.WritePropertyName("token"u8);
            writer.WriteRawValue(token, skipInputValidation: true);
            writer.WritePropertyName("value"u8);
            JsonSerializer.Serialize(writer, value, valueType);
            writer.WriteEndObject();
        }
        else
        {
            writer.WriteStartArray("params"u8);
            writer.WriteRawValue(token, skipInputValidation: true);
            JsonSerializer.Serialize(writer, value, valueType);
            writer.WriteEndArray();
        }

        writer.WriteEndObject();
        writer.Flush();
        client.SendProgress(connection, buffer);
    }
}
