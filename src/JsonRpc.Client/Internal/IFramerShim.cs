using System.Buffers;

namespace JsonRpc.Client.Internal;

// TEMPORARY: mirrors JsonRpc.Framing.IJsonRpcFramer from Core until it is merged; then this file goes.
internal interface IFramerShim
{
    int MaxMessageSize { get; }

    bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message);

    void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message);
}

// TEMPORARY: newline framing until Core's NewlineDelimitedFramer is merged.
internal sealed class NewlineFramerShim(int maxMessageSize) : IFramerShim
{
    public int MaxMessageSize => maxMessageSize;

    public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        while (true)
        {
            var newline = buffer.PositionOf((byte)'\n');
            if (newline is null)
            {
                if (buffer.Length > maxMessageSize)
                {
                    throw new InvalidDataException("Message too large.");
                }

                message = default;
                return false;
            }

            var line = buffer.Slice(0, newline.Value);
            buffer = buffer.Slice(buffer.GetPosition(1, newline.Value));
            if (line.Length > 0 && line.Slice(line.Length - 1).FirstSpan[0] == (byte)'\r')
            {
                line = line.Slice(0, line.Length - 1);
            }

            if (line.Length > 0)
            {
                message = line;
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
