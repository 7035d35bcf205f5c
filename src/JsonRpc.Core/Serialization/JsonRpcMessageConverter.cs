using System.Buffers;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// The System.Text.Json converter for <see cref="JsonRpcMessage"/> and each message type. Reads a message in one
/// forward pass of the serializer's own <see cref="Utf8JsonReader"/>; params, results and error data are copied once,
/// byte for byte. Every malformed input ends in a <see cref="JsonRpcProtocolException"/>.
/// </summary>
/// <typeparam name="TMessage">The message type to read; reading another kind is an Invalid Request.</typeparam>
public sealed class JsonRpcMessageConverter<TMessage> : JsonConverter<TMessage>
    where TMessage : JsonRpcMessage
{
    /// <summary>A JSON <c>null</c> is not a message: it reaches <see cref="Read"/> and is refused there.</summary>
    public override bool HandleNull => true;

    /// <inheritdoc/>
    public override TMessage Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var maxDepth = options.MaxDepth == 0 ? JsonRpcReaderOptions.DefaultMaxDepth : options.MaxDepth;
        JsonRpcMessage? message;
        string? invalid;
        RequestId id;
        try
        {
            if (Utf8JsonReaderAccess.IsAvailable && !Utf8JsonReaderAccess.IsMultiSegment(ref reader))
            {
                message = ReadInPlace(ref reader, Utf8JsonReaderAccess.Buffer(ref reader), out invalid, out id);
            }
            else
            {
                return Check(JsonRpcMessageBuilder.Parse(CopyValue(ref reader), copyValues: false, new JsonRpcReaderOptions { MaxDepth = maxDepth }));
            }
        }
        catch (Exception ex) when (ex is JsonException and not JsonRpcProtocolException or InvalidOperationException or ArgumentException)
        {
            throw new JsonRpcProtocolException(JsonRpcErrorCodes.ParseError, ex.Message);
        }

        if (invalid is not null)
        {
            ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.InvalidRequest, invalid, id);
        }

        return Check(message!);
    }

    /// <inheritdoc/>
    public override void Write(Utf8JsonWriter writer, TMessage value, JsonSerializerOptions options)
        => JsonRpcMessageWriter.Write(writer, value);

    private static JsonRpcMessage? ReadInPlace(ref Utf8JsonReader reader, ReadOnlySpan<byte> buffer, out string? invalid, out RequestId id)
    {
        var scanner = new JsonScanner(buffer);
        try
        {
            return JsonRpcMessageBuilder.ReadValue(ref reader, ref scanner, buffer, default, out invalid, out id);
        }
        finally
        {
            scanner.Dispose();
        }
    }

    /// <summary>The rare paths (a multi-segment reader, or a runtime without the reader's fields): copy the value's bytes first.</summary>
    private static byte[] CopyValue(ref Utf8JsonReader reader)
    {
        if (Utf8JsonReaderAccess.IsAvailable)
        {
            var start = reader.TokenStartIndex;
            var end = reader;
            end.Skip();
            var bytes = Utf8JsonReaderAccess.Sequence(ref reader).Slice(start, end.BytesConsumed - start).ToArray();
            reader = end;
            return bytes;
        }

        using var document = JsonDocument.ParseValue(ref reader);
        return JsonMarshal.GetRawUtf8Value(document.RootElement).ToArray();
    }

    private static TMessage Check(JsonRpcMessage message)
    {
        if (message is TMessage typed)
        {
            return typed;
        }

        var id = message switch
        {
            JsonRpcRequest r => r.Id,
            JsonRpcResponse r => r.Id,
            JsonRpcError e => e.Id,
            _ => default,
        };
        throw new JsonRpcProtocolException(
            JsonRpcErrorCodes.InvalidRequest, $"Expected a {typeof(TMessage).Name}, read a {message.GetType().Name}.", id);
    }
}
