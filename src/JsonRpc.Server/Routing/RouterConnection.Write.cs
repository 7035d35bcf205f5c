using JsonRpc.Server.Diagnostics;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    /// <summary>
    /// Queues a message for this client, taking ownership of its buffer. A client that has fallen
    /// <see cref="JsonRpcRouterOptions.MaxOutboundBufferSize"/> bytes behind is dropped, so that it can neither grow
    /// the router's memory nor hold up whoever is sending to it.
    /// <paramref name="owed"/>: see <see cref="OutboundQueue.Enqueue"/>.
    /// </summary>
    public bool Send(OutboundMessage message, bool owed = false)
    {
        switch (_outbound.Enqueue(message, owed))
        {
            case EnqueueResult.Queued:
                return true;
            case EnqueueResult.Full:
                Close(CloseReason.OutboundLimitExceeded);
                return false;
            default:
                return false;
        }
    }

    // How much the write loop takes from the queue before it flushes (a message larger than this goes whole).
    private const int MaxBytesPerFlush = 256 * 1024;

    private async Task WriteLoopAsync()
    {
        // Start on the thread pool so that RunAsync goes on to read at once.
        await Task.Yield();
        var output = _transport.Output;
        var counters = _router.Counters;
        try
        {
            while (await _outbound.WaitAsync().ConfigureAwait(false))
            {
                var framer = _framer ?? _router.DefaultFramer;
                long messages = 0, bytes = 0;
                while (_outbound.TryDequeue(out var message))
                {
                    try
                    {
                        framer.WriteMessage(output, message.Span);
                    }
                    finally
                    {
                        message.Return();
                    }

                    messages++;
                    bytes += message.Length;
                    if (bytes >= MaxBytesPerFlush)
                    {
                        // What is written but not yet flushed is no longer in the queue, so no longer counted against
                        // the client's bound: take at most this much before waiting for the socket to take it.
                        break;
                    }
                }

                Interlocked.Add(ref counters.MessagesOut, messages);
                Interlocked.Add(ref counters.BytesOut, bytes);

                // The back-pressure point: a client that reads slowly holds this loop here, and its queue fills.
                var flushed = await output.FlushAsync().ConfigureAwait(false);
                if (flushed.IsCompleted)
                {
                    Close(CloseReason.TransportError); // the peer can no longer receive
                    break;
                }

                if (flushed.IsCanceled)
                {
                    break;
                }
            }
        }
        catch (Exception ex) when (ex is IOException or OperationCanceledException or ObjectDisposedException or InvalidOperationException)
        {
            Close(CloseReason.TransportError);
        }
        catch (Exception ex)
        {
            // Never let the writer fault: the connection's cleanup awaits it.
            RouterLog.ConnectionFailed(_logger, ConnectionId, ex);
            Close(CloseReason.TransportError);
        }
        finally
        {
            _outbound.Complete(discard: true);
        }
    }
}
