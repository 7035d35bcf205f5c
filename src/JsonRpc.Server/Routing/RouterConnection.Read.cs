using System.Buffers;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    private async Task ReadLoopAsync()
    {
        var input = _transport.Input;
        while (true)
        {
            await ServePenaltyAsync().ConfigureAwait(false);
            if (_congested is { } congested)
            {
                _congested = null;
                await WaitForCatchUpAsync(congested, queueOnly: _congestedByAnswers).ConfigureAwait(false);
            }

            if (MustPauseReading && !await WaitForRoomAsync().ConfigureAwait(false))
            {
                Close(CloseReason.OutboundLimitExceeded); // it does not read: dropped (a no-op when already closing)

                break;
            }

            var result = await input.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            var stoppedEarly = false;
            var holdingWakes = WriterWakes.InProcess && WriterWakes.Begin();
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

                var framer = _framer;
                if (framer is null)
                {
                    // An HTTP request on the raw TCP port gets a hint in HTTP, not a parse error in JSON.
                    var http = LooksLikeHttp(buffer);
                    if (http == HttpLook.Yes)
                    {
                        AnswerHttpOnTcp();
                        break;
                    }

                    if (http == HttpLook.TooFewBytes && !result.IsCompleted)
                    {
                        continue;
                    }

                    // The first bytes tell the framing: "Content-Length:" headers or newline-delimited JSON.
                    if (!JsonRpcFramer.Detect(buffer, _router.Options.MaxMessageSize, out framer))
                    {
                        if (result.IsCompleted)
                        {
                            if (!buffer.IsEmpty)
                            {
                                EndedMidMessage();
                            }

                            break;
                        }

                        continue; // too few bytes yet to tell
                    }

                    _framer = framer;
                }

                // The framer slices each complete message off the front and throws before buffering more than the
                // maximum message size, so an oversized message is refused while it is still arriving. One read can
                // hold a megabyte of calls: the loop stops early, leaving the rest in the pipe, when their answers
                // would pile up past what the client may be owed, when their provider is falling behind, or when it
                // earned a pause for an invalid message.
                while (!IsClosing && framer.TryReadMessage(ref buffer, out var message))
                {
                    HandleFrame(message);
                    if (_penaltyMs > 0 || _congested is not null || MustPauseReading)
                    {
                        stoppedEarly = true;
                        break;
                    }
                }

                if (result.IsCompleted && !stoppedEarly)
                {
                    if (!IsClosing && !IsBlank(buffer))
                    {
                        EndedMidMessage();
                    }

                    break;
                }
            }
            catch (JsonRpcFramingException ex)
            {
                RefuseFraming(ex);
                break;
            }
            finally
            {
                // Everything handled was copied or routed; the rest stays for the next read (which, after stopping
                // early, returns at once with what is left instead of waiting for more bytes).
                if (stoppedEarly)
                {
                    input.AdvanceTo(buffer.Start);
                }
                else
                {
                    input.AdvanceTo(buffer.Start, buffer.End);
                }

                NotePartialMessage(!stoppedEarly && !buffer.IsEmpty);
                ChargePartialMessage(stoppedEarly ? 0 : buffer.Length);
                if (holdingWakes)
                {
                    WriterWakes.End(); // what this read led to goes out now, from this thread
                }
            }
        }
    }

    private static bool IsBlank(in ReadOnlySequence<byte> rest)
    {
        foreach (var segment in rest)
        {
            if (segment.Span.ContainsAnyExcept(" \t\r\n"u8))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A half message at the end of the stream: answered with a parse error (the peer may still read).</summary>
    private void EndedMidMessage()
    {
        Interlocked.Increment(ref _router.Counters.Errors);
        ReplyWriter.Error(this, null, default, JsonRpcErrorCodes.ParseError, "Parse error", "The connection ended inside a message.");
        Close(CloseReason.ClosedMidMessage);
    }

    /// <summary>An oversized message or broken headers: the stream cannot be resynchronised, so answer and close.</summary>
    private void RefuseFraming(JsonRpcFramingException exception)
    {
        Interlocked.Increment(ref _router.Counters.Errors);
        if (exception.Reason == JsonRpcFramingErrorReason.MessageTooLarge)
        {
            RouterLog.MessageTooLarge(_logger, ConnectionId, _router.Options.MaxMessageSize);
            ReplyWriter.Error(this, null, default, RouterErrorCodes.MessageTooLarge, "Message too large",
                $"Messages are limited to {_router.Options.MaxMessageSize} bytes.");
            Close(CloseReason.MessageTooLarge);
        }
        else
        {
            RouterLog.InvalidMessage(_logger, ConnectionId, JsonRpcErrorCodes.ParseError, exception.Message);
            ReplyWriter.Error(this, null, default, JsonRpcErrorCodes.ParseError, "Parse error", exception.Message);
            Close(CloseReason.InvalidFraming);
        }
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
