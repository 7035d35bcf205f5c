using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>
/// A JSON-RPC 2.0 message. The hierarchy is closed: <see cref="JsonRpcRequest"/>, <see cref="JsonRpcNotification"/>,
/// <see cref="JsonRpcResponse"/>, <see cref="JsonRpcError"/>, <see cref="JsonRpcBatch"/>, and
/// <see cref="JsonRpcInvalidMessage"/> for a batch element that is not a valid message.
/// </summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcMessage>))]
public abstract class JsonRpcMessage
{
    private protected JsonRpcMessage()
    {
    }

    /// <summary>What this message is.</summary>
    public abstract JsonRpcMessageKind Kind { get; }

    /// <summary>
    /// Reads one message or batch from UTF-8 JSON. Params, results and error data become slices of
    /// <paramref name="utf8Json"/>, which the caller owns and must keep unchanged while the message is in use.
    /// </summary>
    /// <exception cref="JsonRpcProtocolException">
    /// The input is not JSON (<see cref="JsonRpcErrorCodes.ParseError"/>) or not a valid message
    /// (<see cref="JsonRpcErrorCodes.InvalidRequest"/>). No other exception type is thrown for any input.
    /// </exception>
    public static JsonRpcMessage Parse(ReadOnlyMemory<byte> utf8Json, JsonRpcReaderOptions? options = null)
        => JsonRpcMessageBuilder.Parse(utf8Json, copyValues: false, (options ?? JsonRpcReaderOptions.Default).MaxDepth);

    /// <summary>Reads one message or batch from UTF-8 JSON, copying params, results and error data.</summary>
    /// <exception cref="JsonRpcProtocolException">The input is not JSON or not a valid message.</exception>
    public static JsonRpcMessage Parse(ReadOnlySpan<byte> utf8Json, JsonRpcReaderOptions? options = null)
    {
        // The span may live on the stack or in a pooled buffer: parse a private copy and slice it.
        return JsonRpcMessageBuilder.Parse(utf8Json.ToArray(), copyValues: false, (options ?? JsonRpcReaderOptions.Default).MaxDepth);
    }

    /// <summary>Reads one message or batch from a (possibly multi-segment) sequence, copying the values it keeps.</summary>
    /// <exception cref="JsonRpcProtocolException">The input is not JSON or not a valid message.</exception>
    public static JsonRpcMessage Parse(in ReadOnlySequence<byte> utf8Json, JsonRpcReaderOptions? options = null)
        => JsonRpcMessageBuilder.Parse(utf8Json.ToArray(), copyValues: false, (options ?? JsonRpcReaderOptions.Default).MaxDepth);

    /// <summary>Reads one message or batch from JSON text.</summary>
    /// <exception cref="JsonRpcProtocolException">
    /// The input is not JSON, or holds a lone surrogate (<see cref="JsonRpcErrorCodes.ParseError"/>), or is not a valid
    /// message (<see cref="JsonRpcErrorCodes.InvalidRequest"/>).
    /// </exception>
    public static JsonRpcMessage Parse(string json, JsonRpcReaderOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(json);
        return JsonRpcMessageBuilder.Parse(Utf8Text.GetBytes(json), copyValues: false, (options ?? JsonRpcReaderOptions.Default).MaxDepth);
    }

    /// <summary>Writes the message as UTF-8 JSON into <paramref name="destination"/>, with no intermediate string or array.</summary>
    public void WriteTo(IBufferWriter<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        JsonRpcMessageWriter.Write(destination, this);
    }

    /// <summary>Writes the message as the next JSON value of <paramref name="writer"/>.</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        JsonRpcMessageWriter.Write(writer, this);
    }

    /// <summary>The message as UTF-8 JSON bytes.</summary>
    public byte[] ToUtf8Bytes()
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        JsonRpcMessageWriter.Write(buffer, this);
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>The message as JSON text.</summary>
    public override string ToString()
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        JsonRpcMessageWriter.Write(buffer, this);
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
