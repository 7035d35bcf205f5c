using System.Buffers;
using JsonRpc.Framing;

namespace JsonRpc.Server.Web;

/// <summary>
/// The framing between the router and a message-oriented transport (a WebSocket, an HTTP body) on the two in-memory
/// pipes of <see cref="WebSocketTransport"/> and <see cref="HttpTransport"/>: each message is followed by one 0xFF
/// byte, which never occurs in UTF-8 text, so the boundaries are exact whatever the JSON holds (raw newlines
/// included) and the transport can stream a message in as it arrives, without knowing its length first.
/// </summary>
/// <remarks>
/// A message that is only <see cref="RefusedMarker"/> stands for input the transport refused (a binary WebSocket
/// message): reading it throws, so the router answers and closes exactly as for malformed framing on TCP.
/// </remarks>
internal sealed class MessageBoundaryFramer(int maxMessageSize) : IJsonRpcFramer
{
    /// <summary>Ends every message.</summary>
    public const byte Delimiter = 0xFF;

    /// <summary>Alone between two delimiters: the transport refused a message (0xFE is not UTF-8 either).</summary>
    public const byte RefusedMarker = 0xFE;

    /// <inheritdoc/>
    public int MaxMessageSize { get; } = maxMessageSize;

    /// <inheritdoc/>
    public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        // Search no further than a message of the maximum size and its delimiter could reach.
        var window = buffer.Length > MaxMessageSize + 1L ? buffer.Slice(0, MaxMessageSize + 1L) : buffer;
        if (window.PositionOf(Delimiter) is not { } end)
        {
            if (buffer.Length > MaxMessageSize)
            {
                throw new JsonRpcFramingException(JsonRpcFramingErrorReason.MessageTooLarge,
                    $"The message exceeds the {MaxMessageSize}-byte limit.");
            }

            message = default;
            return false;
        }

        message = buffer.Slice(0, end);
        buffer = buffer.Slice(buffer.GetPosition(1, end));
        if (message.Length == 1 && message.FirstSpan[0] == RefusedMarker)
        {
            throw new JsonRpcFramingException(JsonRpcFramingErrorReason.InvalidHeader,
                "Binary WebSocket messages are not accepted: send each JSON-RPC message or batch as one text message.");
        }

        return true;
    }

    /// <inheritdoc/>
    public void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.Write(message);
        WriteDelimiter(output);
    }

    /// <summary>Writes the delimiter alone, ending a message streamed in pieces.</summary>
    public static void WriteDelimiter(IBufferWriter<byte> output)
    {
        output.GetSpan(1)[0] = Delimiter;
        output.Advance(1);
    }
}
