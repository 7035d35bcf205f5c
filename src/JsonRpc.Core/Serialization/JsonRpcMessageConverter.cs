using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// The System.Text.Json converter for <see cref="JsonRpcMessage"/> and each message type. Reads a message in one
/// forward pass of the serializer's own <see cref="Utf8JsonReader"/>; params, results and error data are copied once,
/// byte for byte. Every malformed message that reaches the converter ends in a <see cref="JsonRpcProtocolException"/>.
/// </summary>
/// <remarks>
/// <para>
/// Messages are read strictly whatever the serializer's options allow: comments and trailing commas are Parse errors,
/// as they are not JSON and would otherwise be kept in params and results and sent on to peers.
/// </para>
/// <para>
/// The serializer checks some things itself, before or after it calls the converter, and reports them as a plain
/// <see cref="JsonException"/>: input with no JSON value at all, data after the value when it reads a stream, and
/// syntax errors it finds while buffering a value ahead (streams, pipes, <c>Deserialize(ref Utf8JsonReader)</c>). All of
/// those are Parse errors (-32700). When the message is the whole input of a span, array or string, the converter
/// checks what follows the value itself, so every error comes out as a <see cref="JsonRpcProtocolException"/>.
/// </para>
/// </remarks>
/// <typeparam name="TMessage">The message type to read; reading another kind is an Invalid Request.</typeparam>
public sealed class JsonRpcMessageConverter<TMessage> : JsonConverter<TMessage>
    where TMessage : JsonRpcMessage
{
    /// <summary>A JSON <c>null</c> is not a message: it reaches <see cref="Read"/> and is refused there.</summary>
    public override bool HandleNull => true;

    /// <summary>Reads one message or batch in a single forward pass, as strictly as <see cref="JsonRpcMessage.Parse(string, JsonRpcReaderOptions?)"/>.</summary>
    /// <exception cref="JsonRpcProtocolException">The value is not a valid message, or not a <typeparamref name="TMessage"/>.</exception>
    public override TMessage Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var readerOptions = reader.CurrentState.Options;
        var isWholeInput = reader.CurrentDepth == 0 && reader.IsFinalBlock && !readerOptions.AllowMultipleValues;
        JsonRpcMessage? message = null;
        byte[]? copy = null;
        string? invalid = null;
        RequestId id = default;
        try
        {
            if (Utf8JsonReaderAccess.IsAvailable && !Utf8JsonReaderAccess.IsMultiSegment(ref reader) && IsStrict(readerOptions))
            {
                message = ReadInPlace(ref reader, Utf8JsonReaderAccess.Buffer(ref reader), out invalid, out id);
            }
            else
            {
                copy = Utf8JsonReaderAccess.CopyValue(ref reader);
            }

            if (isWholeInput && !IsOnlyWhitespaceAfter(ref reader))
            {
                // The serializer reads on after the value and throws a plain JsonException for anything but
                // whitespace; finding it first keeps "not JSON" a Parse error that carries the JSON-RPC code.
                var rest = reader;
                rest.Read();
            }
        }
        catch (Exception ex) when (ex is JsonException and not JsonRpcProtocolException or InvalidOperationException or ArgumentException)
        {
            throw new JsonRpcProtocolException(JsonRpcErrorCodes.ParseError, ex.Message);
        }

        if (copy is not null)
        {
            var maxDepth = options.MaxDepth == 0 ? JsonRpcReaderOptions.DefaultMaxDepth : options.MaxDepth;
            return Check(JsonRpcMessageBuilder.Parse(copy, copyValues: false, maxDepth));
        }

        if (invalid is not null)
        {
            ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.InvalidRequest, invalid, id);
        }

        return Check(message!);
    }

    /// <summary>Writes the message as JSON-RPC 2.0, with params, results and error data as their raw bytes.</summary>
    public override void Write(Utf8JsonWriter writer, TMessage value, JsonSerializerOptions options)
        => JsonRpcMessageWriter.Write(writer, value);

    /// <summary>True when only JSON whitespace follows the value in a single-segment input: nothing left to check.</summary>
    private static bool IsOnlyWhitespaceAfter(ref Utf8JsonReader reader)
        => Utf8JsonReaderAccess.IsAvailable
            && !Utf8JsonReaderAccess.IsMultiSegment(ref reader)
            && Utf8JsonReaderAccess.Buffer(ref reader)[checked((int)reader.BytesConsumed)..].IndexOfAnyExcept(" \t\r\n"u8) < 0;

    private static bool IsStrict(JsonReaderOptions options)
        => options.CommentHandling == JsonCommentHandling.Disallow && !options.AllowTrailingCommas;

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

    private static TMessage Check(JsonRpcMessage message)
    {
        if (typeof(TMessage) == typeof(JsonRpcMessage))
        {
            return Unsafe.As<TMessage>(message); // every message is one; spares the shared-generic type check
        }

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
