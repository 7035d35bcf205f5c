using System.Buffers;
using System.Text.Json;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using N = JsonRpc.Serialization.JsonRpcPropertyNames;

namespace JsonRpc.Dispatch;

/// <summary>Writes answers straight into the output with a per-thread <see cref="Utf8JsonWriter"/>; writing never awaits.</summary>
internal static class DispatchWriter
{
    /// <summary>The longest number id formatted without the writer; longer ones (JSON allows any) take the writer path.</summary>
    private const int MaxIdLength = 32;

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    public static void WriteResult<T>(IBufferWriter<byte> output, RequestId id, T value, ResultWriter<T> result)
    {
        if (TryFormatResult(output, id, value, result))
        {
            return;
        }

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

    /// <summary>
    /// Formats the whole answer straight into the output when the id is a number or null and the result formats
    /// itself: the same bytes the <see cref="Utf8JsonWriter"/> path writes, without renting and flushing a writer.
    /// </summary>
    private static bool TryFormatResult<T>(IBufferWriter<byte> output, RequestId id, T value, ResultWriter<T> result)
    {
        ReadOnlySpan<byte> head = "{\"jsonrpc\":\"2.0\",\"id\":"u8;
        ReadOnlySpan<byte> middle = ",\"result\":"u8;
        var valueLength = result.MaxFormattedLength(value);
        if (valueLength < 0 || id.IsString)
        {
            return false;
        }

        var span = output.GetSpan(head.Length + MaxIdLength + middle.Length + valueLength + 1);
        head.CopyTo(span);
        var at = head.Length;
        if (!id.TryFormatPlain(span[at..], out var written))
        {
            return false;
        }

        at += written;
        if (!middle.TryCopyTo(span[at..]))
        {
            return false;
        }

        at += middle.Length;
        if (!result.TryFormat(value, span[at..], out written) || at + written >= span.Length)
        {
            return false;
        }

        at += written;
        span[at++] = (byte)'}';
        output.Advance(at);
        return true;
    }

    /// <summary>Answers a message the reader refused: the spec's code and message, the reader's detail as data.</summary>
    public static void WriteError(IBufferWriter<byte> output, RequestId id, in JsonRpcReadError error)
        => WriteError(output, id, error.Code, error.Message, Detail(error.Detail));

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
