using System.Buffers;
using System.Text.Json;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using N = JsonRpc.Serialization.JsonRpcPropertyNames;

namespace JsonRpc.Dispatch;

/// <summary>Writes answers straight into the output with a per-thread <see cref="Utf8JsonWriter"/>; writing never awaits.</summary>
internal static class DispatchWriter
{
    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    public static void WriteResult<T>(IBufferWriter<byte> output, RequestId id, T value, ResultWriter<T> result)
    {
        var writer = Rent(output);
        try
        {
            writer.WriteStartObject();
            writer.WriteString(N.JsonRpc, N.Version);
            writer.WritePropertyName(N.Id);
            id.WriteTo(writer);
            writer.WritePropertyName(N.Result);
            result.Write(writer, value);

            writer.WriteEndObject();
            writer.Flush();
        }
        finally
        {
            Return(writer);
        }
    }

    public static void WriteError(IBufferWriter<byte> output, RequestId id, int code, string message, RawJson data)
    {
        var writer = Rent(output);
        try
        {
            writer.WriteStartObject();
            writer.WriteString(N.JsonRpc, N.Version);
            writer.WritePropertyName(N.Id);
            id.WriteTo(writer); // None and Null both write null, as the spec asks when the id could not be read
            writer.WritePropertyName(N.Error);
            writer.WriteStartObject();
            writer.WriteNumber(N.Code, code);
            writer.WriteString(N.Message, message);
            if (!data.IsEmpty)
            {
                writer.WritePropertyName(N.Data);
                writer.WriteRawValue(data.Span, skipInputValidation: true);
            }

            writer.WriteEndObject();
            writer.WriteEndObject();
            writer.Flush();
        }
        finally
        {
            Return(writer);
        }
    }

    /// <summary>A detail string as error data.</summary>
    public static RawJson Detail(string detail) => RawJson.From(detail, JsonRpcJsonContext.Default.String);

    private static Utf8JsonWriter Rent(IBufferWriter<byte> output)
    {
        var writer = t_writer;
        if (writer is null)
        {
            return new Utf8JsonWriter(output, JsonRpcMessageWriter.WriterOptions);
        }

        t_writer = null;
        writer.Reset(output);
        return writer;
    }

    private static void Return(Utf8JsonWriter writer)
    {
        writer.Reset(NullBufferWriter.Instance);
        t_writer = writer;
    }
}
