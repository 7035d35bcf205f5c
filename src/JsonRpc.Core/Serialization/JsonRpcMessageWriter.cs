using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using JsonRpc.Protocol;
using N = JsonRpc.Serialization.JsonRpcPropertyNames;

namespace JsonRpc.Serialization;

/// <summary>Writes messages with <see cref="Utf8JsonWriter"/> straight into the destination buffer.</summary>
public static class JsonRpcMessageWriter
{
    /// <summary>
    /// Compact output with the relaxed encoder: text of the Basic Multilingual Plane is written as UTF-8 rather than
    /// escaped, and HTML-sensitive characters are not escaped, as nothing here is embedded in HTML. (Characters outside
    /// it, such as emoji, are still written as <c>\uXXXX</c> surrogate pairs: the same string, spelled differently.)
    /// Params, results and error data are never re-encoded: their bytes are written as they are.
    /// </summary>
    public static JsonWriterOptions WriterOptions { get; } = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Indented = false,
        SkipValidation = true,
    };

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    /// <summary>Writes <paramref name="message"/> as UTF-8 JSON into <paramref name="destination"/>.</summary>
    public static void Write(IBufferWriter<byte> destination, JsonRpcMessage message)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ArgumentNullException.ThrowIfNull(message);
        var writer = t_writer;
        if (writer is null)
        {
            writer = new Utf8JsonWriter(destination, WriterOptions);
        }
        else
        {
            t_writer = null; // a nested call on this thread gets a writer of its own
            writer.Reset(destination);
        }

        try
        {
            Write(writer, message);
            writer.Flush();
        }
        finally
        {
            writer.Reset(NullBufferWriter.Instance);
            t_writer = writer;
        }
    }

    /// <summary>Writes <paramref name="message"/> as the next value of <paramref name="writer"/>.</summary>
    public static void Write(Utf8JsonWriter writer, JsonRpcMessage message)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(message);
        switch (message)
        {
            case JsonRpcRequest request:
                writer.WriteStartObject();
                writer.WriteString(N.JsonRpc, N.Version);
                writer.WritePropertyName(N.Id);
                request.Id.WriteTo(writer);
                writer.WriteString(N.Method, request.Method);
                WriteRaw(writer, N.Params, request.Params);
                writer.WriteEndObject();
                break;
            case JsonRpcNotification notification:
                writer.WriteStartObject();
                writer.WriteString(N.JsonRpc, N.Version);
                writer.WriteString(N.Method, notification.Method);
                WriteRaw(writer, N.Params, notification.Params);
                writer.WriteEndObject();
                break;
            case JsonRpcResponse response:
                writer.WriteStartObject();
                writer.WriteString(N.JsonRpc, N.Version);
                writer.WritePropertyName(N.Id);
                response.Id.WriteTo(writer);
                WriteRaw(writer, N.Result, response.Result);
                writer.WriteEndObject();
                break;
            case JsonRpcError error:
                writer.WriteStartObject();
                writer.WriteString(N.JsonRpc, N.Version);
                writer.WritePropertyName(N.Id);
                error.Id.WriteTo(writer);
                writer.WritePropertyName(N.Error);
                writer.WriteStartObject();
                writer.WriteNumber(N.Code, error.Error.Code);
                writer.WriteString(N.Message, error.Error.Message);
                WriteRaw(writer, N.Data, error.Error.Data);
                writer.WriteEndObject();
                writer.WriteEndObject();
                break;
            case JsonRpcBatch batch:
                // Refuse before writing anything, so that no half-written batch is left in the destination.
                foreach (var item in batch.Span)
                {
                    if (item is JsonRpcInvalidMessage)
                    {
                        ThrowHelper.ThrowInvalidOperation_CannotWriteInvalid();
                    }
                }

                writer.WriteStartArray();
                foreach (var item in batch.Span)
                {
                    Write(writer, item);
                }

                writer.WriteEndArray();
                break;
            default:
                ThrowHelper.ThrowInvalidOperation_CannotWriteInvalid();
                break;
        }
    }

    private static void WriteRaw(Utf8JsonWriter writer, JsonEncodedText name, RawJson value)
    {
        if (!value.IsEmpty)
        {
            writer.WritePropertyName(name);
            writer.WriteRawValue(value.Span, skipInputValidation: true);
        }
    }
}
