using System.Buffers;
using JsonRpc.Protocol;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.Interim;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    private async Task ReadLoopAsync()
    {
        var input = _transport.Input;
        while (true)
        {
            var result = await input.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            try
            {
                if (result.IsCanceled || IsClosing)
                {
                    break;
                }

                if (!buffer.IsEmpty)
                {
                    Volatile.Write(ref _lastActivity, Environment.TickCount64);
                }

                var framer = _framer ??= ChooseFramer(buffer, result.IsCompleted);
                if (framer is null)
                {
                    if (result.IsCompleted)
                    {
                        break;
                    }

                    continue; // not enough bytes yet to tell the framing
                }

                // The framer slices each complete message off the front and throws before buffering more than the
                // maximum message size, so an oversized message is refused while it is still arriving.
                while (!IsClosing && framer.TryReadMessage(ref buffer, out var message))
                {
                    HandleFrame(message);
                }

                if (result.IsCompleted)
                {
                    if (!buffer.IsEmpty && !IsClosing)
                    {
                        ReplyWriter.Error(this, null, default, JsonRpcErrorCodes.ParseError, "Parse error", "The connection ended inside a message.");
                        Interlocked.Increment(ref _router.Counters.Errors);
                        Close(CloseReason.ClosedMidMessage);
                    }

                    break;
                }
            }
            catch (InterimFramingException)
            {
                RouterLog.MessageTooLarge(_logger, ConnectionId, _router.Options.MaxMessageSize);
                ReplyWriter.Error(this, null, default, RouterErrorCodes.MessageTooLarge, "Message too large",
                    $"Messages are limited to {_router.Options.MaxMessageSize} bytes.");
                Interlocked.Increment(ref _router.Counters.Errors);
                Close(CloseReason.MessageTooLarge);
                break;
            }
            finally
            {
                // Everything handled was copied or routed; the rest stays for the next read.
                input.AdvanceTo(buffer.Start, buffer.End);
            }
        }
    }

    private IJsonRpcFramer? ChooseFramer(in ReadOnlySequence<byte> buffer, bool isCompleted)
    {
        _ = buffer;
        _ = isCompleted;
        return _router.DefaultFramer;
    }

    private void HandleFrame(in ReadOnlySequence<byte> frame)
    {
        if (frame.IsSingleSegment)
        {
            HandleMessage(frame.FirstSpan);
            return;
        }

        // The reader wants one span: copy a message that spans segments into a pooled buffer.
        var length = (int)frame.Length;
        var rented = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            frame.CopyTo(rented);
            HandleMessage(rented.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
