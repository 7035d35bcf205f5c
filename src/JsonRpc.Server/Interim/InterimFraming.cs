using System.Buffers;

namespace JsonRpc.Server.Interim;

// TEMPORARY: stands in for JsonRpc.Framing (being written in Core) with the same shape, so the connection loop can
// be built and tested now. Deleted when JsonRpc.Framing lands in main.
internal interface IJsonRpcFramer
{
    int MaxMessageSize { get; }

    bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message);

    void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message);
}

internal sealed class InterimFramingException(string message) : Exception(message);

internal sealed class InterimNewlineFramer(int maxMessageSize) : IJsonRpcFramer
{
    public int MaxMessageSize { get; } = maxMessageSize;

    public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        while (true)
        {
            var end = buffer.PositionOf((byte)'\n');
            if (end is null)
            {
                if (buffer.Length > MaxMessageSize)
                {
                    throw new InterimFramingException("too large");
                }

                message = default;
                return false;
            }

            message = buffer.Slice(0, end.Value);
            buffer = buffer.Slice(buffer.GetPosition(1, end.Value));
            if (message.Length > MaxMessageSize)
            {
                throw new InterimFramingException("too large");
            }

            if (!message.IsEmpty && message.Slice(message.Length - 1).FirstSpan[0] == (byte)'\r')
            {
                message = message.Slice(0, message.Length - 1);
            }

            if (!message.IsEmpty)
            {
                return true;
            }
        }
    }

    public void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message)
    {
        var span = output.GetSpan(message.Length + 1);
        message.CopyTo(span);
        span[message.Length] = (byte)'\n';
        output.Advance(message.Length + 1);
    }
}
