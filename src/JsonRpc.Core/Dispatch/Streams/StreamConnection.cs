using System.Buffers;
using System.IO.Pipelines;
using System.Threading.Channels;
using JsonRpc.Buffers;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch.Streams;

/// <summary>
/// One peer served over a stream by <see cref="JsonRpcDispatcher.ServeAsync"/>: a read loop that dispatches each
/// message on its own, and a write loop that sends answers and notifications in the order they were queued.
/// </summary>
internal sealed class StreamConnection : JsonRpcPeerChannel
{
    private readonly JsonRpcDispatcher _dispatcher;
    private readonly Stream _stream;
    private readonly IJsonRpcFramer _framer;
    private readonly CancellationTokenSource _closing;
    private readonly JsonRpcCancellationScope _scope;
    private readonly SemaphoreSlim _slots;
    private readonly Channel<(byte[] Frame, int Length)> _outbound = Channel.CreateUnbounded<(byte[], int)>(new UnboundedChannelOptions { SingleReader = true });
    private readonly Lock _framing = new(); // the framer is not thread-safe, writing included
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _queuedBytes;
    private int _running = 1; // the read loop counts as one until it ends

    public StreamConnection(JsonRpcDispatcher dispatcher, Stream stream, IJsonRpcFramer framer, CancellationToken cancellationToken)
    {
        _dispatcher = dispatcher;
        _stream = stream;
        _framer = framer;
        _closing = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _scope = new JsonRpcCancellationScope(_closing.Token, this);
        _slots = new SemaphoreSlim(Math.Max(1, dispatcher.Options.MaxConcurrentCalls));
    }

    public async Task RunAsync()
    {
        var writing = Task.Run(WriteLoopAsync);
        _dispatcher.Peers.Add(this);
        try
        {
            await ReadLoopAsync().ConfigureAwait(false);
        }
        finally
        {
            _dispatcher.Peers.Remove(this);
            // The peer is gone (or we stop): its calls are cancelled, its enumerables disposed.
            _scope.CancelAll();
            CallEnded();
            await _drained.Task.ConfigureAwait(false);
            _outbound.Writer.TryComplete();
            await writing.ConfigureAwait(false);
            _scope.Dispose();
            _closing.Dispose();
            _slots.Dispose();
        }
    }

    public override bool TrySend(ReadOnlySpan<byte> notification)
    {
        if (_closing.IsCancellationRequested || Volatile.Read(ref _queuedBytes) + notification.Length > _dispatcher.Options.MaxOutboundBytes)
        {
            return false;
        }

        Queue(notification);
        return true;
    }

    private async Task ReadLoopAsync()
    {
        var input = PipeReader.Create(_stream, new StreamPipeReaderOptions(leaveOpen: true));
        try
        {
            while (true)
            {
                ReadResult result;
                try
                {
                    result = await input.ReadAsync(_closing.Token).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is OperationCanceledException or IOException or ObjectDisposedException)
                {
                    return;
                }

                var buffer = result.Buffer;
                try
                {
                    while (TryRead(ref buffer, out var message))
                    {
                        if (message.IsEmpty)
                        {
                            return; // refused framing, answered
                        }

                        var length = (int)message.Length;
                        var copy = ArrayPool<byte>.Shared.Rent(length);
                        message.CopyTo(copy);
                        if (_slots.Wait(0))
                        {
                            Dispatch(copy, length, holdsSlot: true);
                        }
                        else
                        {
                            // Every slot is taken. Reading goes on (a cancellation may be what frees them): a
                            // cancellation or an abort is served without one, a call is refused, a notification dropped.
                            Overflow(copy, length);
                        }
                    }

                    if (result.IsCompleted || result.IsCanceled)
                    {
                        return;
                    }
                }
                finally
                {
                    input.AdvanceTo(buffer.Start, buffer.End);
                }
            }
        }
        finally
        {
            await input.CompleteAsync().ConfigureAwait(false);
        }
    }

    // False when more input is needed; true with an empty message when the framing was refused (answered, and the end).
    private bool TryRead(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        try
        {
            return _framer.TryReadMessage(ref buffer, out message);
        }
        catch (JsonRpcFramingException ex)
        {
            using var error = new PooledBufferWriter();
            DispatchWriter.WriteError(error, RequestId.None, JsonRpcErrorCodes.ParseError, "Parse error", DispatchWriter.Detail(ex.Message));
            Queue(error.WrittenSpan);
            message = default;
            return true;
        }
    }

    /// <summary>
    /// A message read while <see cref="JsonRpcDispatcherOptions.MaxConcurrentCalls"/> run: a <c>$/cancelRequest</c> or
    /// <c>$/enumerator/abort</c> notification (quick, runs no handler, frees what holds slots) is served; a request is
    /// answered <see cref="JsonRpcDispatcher.Overloaded"/>; anything else is dropped.
    /// </summary>
    private void Overflow(byte[] message, int length)
    {
        var span = message.AsSpan(0, length);
        if (JsonRpcMessageReader.TryRead(span, out var info, out _))
        {
            if (info.Kind == JsonRpcMessageKind.Notification
                && (JsonRpcProtocolMethods.IsCancelRequest(span, in info) || span[info.Method].SequenceEqual("$/enumerator/abort"u8)))
            {
                Dispatch(message, length, holdsSlot: false);
                return;
            }

            if (info.Kind == JsonRpcMessageKind.Request)
            {
                using var error = new PooledBufferWriter();
                DispatchWriter.WriteError(error, info.GetId(span), JsonRpcDispatcher.Overloaded, "Too many concurrent calls", DispatchWriter.Detail(
                    $"This connection already has {_dispatcher.Options.MaxConcurrentCalls} calls running, the most it may: wait for an answer first."));
                Queue(error.WrittenSpan);
            }
        }

        ArrayPool<byte>.Shared.Return(message);
    }

    private void Dispatch(byte[] message, int length, bool holdsSlot)
    {
        Interlocked.Increment(ref _running);
        var output = new PooledBufferWriter();
        ValueTask<bool> pending;
        try
        {
            pending = _dispatcher.DispatchAsync(message.AsMemory(0, length), output, _scope);
        }
        catch (Exception)
        {
            Finish(false, message, output, holdsSlot);
            return;
        }

        if (pending.IsCompleted)
        {
            Finish(pending.IsCompletedSuccessfully && pending.Result, message, output, holdsSlot);
        }
        else
        {
            _ = AwaitAsync(pending, message, output, holdsSlot);
        }
    }

    private async Task AwaitAsync(ValueTask<bool> pending, byte[] message, PooledBufferWriter output, bool holdsSlot)
    {
        var answered = false;
        try
        {
            answered = await pending.ConfigureAwait(false);
        }
        catch (Exception)
        {
            // The dispatcher answers handler failures itself; anything else leaves nothing to send.
        }

        Finish(answered, message, output, holdsSlot);
    }

    private void Finish(bool answered, byte[] message, PooledBufferWriter output, bool holdsSlot)
    {
        ArrayPool<byte>.Shared.Return(message);
        if (answered && output.WrittenCount > 0)
        {
            Queue(output.WrittenSpan);
        }

        output.Reset();
        if (holdsSlot)
        {
            _slots.Release();
        }

        CallEnded();
    }

    private void CallEnded()
    {
        if (Interlocked.Decrement(ref _running) == 0)
        {
            _drained.TrySetResult();
        }
    }

    private void Queue(ReadOnlySpan<byte> message)
    {
        var frame = new PooledBufferWriter();
        lock (_framing)
        {
            _framer.WriteMessage(frame, message);
        }

        var bytes = frame.Detach(out var length);
        Interlocked.Add(ref _queuedBytes, length);
        if (!_outbound.Writer.TryWrite((bytes, length)))
        {
            Interlocked.Add(ref _queuedBytes, -length);
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }

    private async Task WriteLoopAsync()
    {
        var reader = _outbound.Reader;
        var failed = false;
        while (await reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (reader.TryRead(out var item))
            {
                try
                {
                    if (!failed)
                    {
                        await _stream.WriteAsync(item.Frame.AsMemory(0, item.Length)).ConfigureAwait(false);
                    }
                }
                catch (Exception ex) when (ex is IOException or ObjectDisposedException or NotSupportedException)
                {
                    // The peer is gone: what is still queued is dropped, and the connection ends.
                    failed = true;
                    await _closing.CancelAsync().ConfigureAwait(false);
                }
                finally
                {
                    Interlocked.Add(ref _queuedBytes, -item.Length);
                    ArrayPool<byte>.Shared.Return(item.Frame);
                }
            }

            try
            {
                if (!failed)
                {
                    await _stream.FlushAsync().ConfigureAwait(false);
                }
            }
            catch (Exception ex) when (ex is IOException or ObjectDisposedException or NotSupportedException)
            {
                failed = true;
                await _closing.CancelAsync().ConfigureAwait(false);
            }
        }
    }
}
