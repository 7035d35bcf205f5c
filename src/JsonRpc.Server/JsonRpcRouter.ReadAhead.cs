using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;
using JsonRpc.Server.Streams;

namespace JsonRpc.Server;

/// <summary>
/// Reading ahead of a prefetching stream's consumer. A StreamJsonRpc generator with prefetch (<c>WithPrefetchAsync</c>)
/// already runs ahead of its consumer, so the router may too: once the consumer has a batch, the router pulls the next
/// one itself, and the consumer's next pull is answered from the router (or takes over the router's pull still on its
/// way), so that the hop through the router is off the consumer's path. One batch per stream, counted against the
/// consumer's bound (twice the last batch is reserved before the pull; no room, no read-ahead). A stream without
/// prefetch is never read ahead: its generator computes a value only when asked, and so it stays.
/// </summary>
public sealed partial class JsonRpcRouter
{
    private const int MinReadAheadBytes = 4096;

    // Room kept before a batch read ahead, so that the consumer's id (up to this much longer than the router's) is
    // spliced in place and the batch goes out in the buffer it was kept in.
    private const int ReadAheadHeadroom = 32;

    /// <summary>Pulls the next batch of <paramref name="stream"/> for its consumer, if it reads ahead and nothing else is pulling it.</summary>
    internal void ReadAhead(EnumeratorStream stream)
    {
        var consumer = stream.Consumer;
        var generator = stream.Generator;
        if (!stream.ReadsAhead || Volatile.Read(ref stream.Ended) != 0 || generator.IsClosing || consumer.IsClosing)
        {
            return;
        }

        var reserve = Math.Min(Math.Max(MinReadAheadBytes, 2L * Volatile.Read(ref stream.LastBatchBytes)), Options.MaxMessageSize);
        if (!consumer.Ledger.TryReserveStream(reserve, Options.MaxOutboundBufferSize))
        {
            return; // the consumer is behind: its own pull goes to the generator
        }

        if (!consumer.TryBeginReadAhead())
        {
            consumer.Ledger.ReleaseStream(reserve);
            return;
        }

        var call = RentCall(consumer, generator, default, null);
        bool started;
        lock (stream.Gate)
        {
            started = stream.Pulling == 0 && stream.Buffered is null && stream.AheadFailed is null && Volatile.Read(ref stream.Ended) == 0;
            if (started)
            {
                stream.Pulling = 1;
                stream.Ahead = call;
                stream.Reserved = reserve;
                call.Pull = stream;
                call.ReadAhead = true;
            }
        }

        if (!started)
        {
            consumer.Ledger.ReleaseStream(reserve);
            Release(call);
            return;
        }

        var next = StreamMessages.Next(call.RouterId, stream.GeneratorToken);
        if (!generator.TryAddInFlight(call))
        {
            next.Return();
            FailCall(call, RouterErrorCodes.ProviderDisconnected, "Provider disconnected");
            return;
        }

        Interlocked.Increment(ref StreamCounters.ReadAheads);
        generator.Send(next);
    }

    /// <summary>
    /// The generator answered a pull of a stream that reads ahead: an answer to the router's own pull is kept for the
    /// consumer's next (true: the call is released here); an answer to a consumer's pull goes on as usual (false).
    /// </summary>
    internal bool TryKeepReadAhead(RoutedCall call, EnumeratorStream stream, ReadOnlySpan<byte> answer, Range idToken, bool finished)
    {
        long release = 0;
        lock (stream.Gate)
        {
            stream.LastBatchBytes = answer.Length;
            if (!call.ReadAhead)
            {
                // A consumer's pull (or one that took over the router's): the answer goes straight to it.
                release = stream.Reserved;
                stream.Reserved = 0;
            }
            else
            {
                stream.Ahead = null;
                stream.Pulling = 0;
                if (Volatile.Read(ref stream.Ended) == 0)
                {
                    // (An ended stream dropped what it held; this late answer is dropped with the call.)
                    var kept = System.Buffers.ArrayPool<byte>.Shared.Rent(ReadAheadHeadroom + answer.Length);
                    answer.CopyTo(kept.AsSpan(ReadAheadHeadroom));
                    stream.Buffered = new OutboundMessage(kept, ReadAheadHeadroom, answer.Length);
                    stream.BufferedId = idToken;
                    stream.BufferedFinished = finished;
                    if (answer.Length > stream.Reserved)
                    {
                        // Bigger than twice the last batch: keep it (one message, within max_message_size) but read
                        // this stream ahead no more if the consumer's bound has no room for the difference.
                        if (stream.Consumer.Ledger.TryReserveStream(answer.Length - stream.Reserved, Options.MaxOutboundBufferSize))
                        {
                            stream.Reserved = answer.Length;
                        }
                        else
                        {
                            stream.ReadsAhead = false;
                        }
                    }
                }
            }
        }

        if (release > 0)
        {
            stream.Consumer.Ledger.ReleaseStream(release);
        }

        if (!call.ReadAhead)
        {
            return false;
        }

        call.Pull = null; // the stream lives on for the consumer's pull
        Release(call);
        return true;
    }

    /// <summary>The router's own pull failed (timeout, the generator gone, shutdown): the consumer's next pull gets the error.</summary>
    private bool TryKeepReadAheadFailure(RoutedCall call, int code, string message, string? data)
    {
        if (call.Pull is not { } stream)
        {
            return false;
        }

        lock (stream.Gate)
        {
            if (!call.ReadAhead)
            {
                return false;
            }

            stream.Ahead = null;
            stream.Pulling = 0;
            stream.AheadFailed = (code, message, data);
        }

        call.Pull = null;
        Release(call);
        return true;
    }

    /// <summary>What a consumer's pull of a stream that reads ahead finds.</summary>
    internal enum ReadAheadPull
    {
        /// <summary>Nothing read ahead and nothing pulling: the pull goes to the generator as usual.</summary>
        Forward,

        /// <summary>A pull is already on its way for this consumer's previous pull: refused.</summary>
        Busy,

        /// <summary>The pull took over the router's pull on its way; its answer will go to the consumer.</summary>
        TookOver,

        /// <summary>Answered from what was read ahead (or with the error the read-ahead met).</summary>
        Answered,
    }

    /// <summary>A consumer's pull of a stream that reads ahead: answered from the router, joined to its pull, or forwarded.</summary>
    internal ReadAheadPull PullReadAhead(EnumeratorStream stream, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        OutboundMessage? buffered;
        Range bufferedId;
        bool finished;
        (int Code, string Message, string? Data)? failed;
        long reserved;
        lock (stream.Gate)
        {
            buffered = stream.Buffered;
            failed = stream.AheadFailed;
            if (buffered is null && failed is null)
            {
                if (stream.Ahead is { } ahead)
                {
                    batch?.Expect();
                    ahead.Adopt(idToken, batch);
                    stream.Ahead = null;
                    return ReadAheadPull.TookOver;
                }

                if (stream.Pulling != 0)
                {
                    return ReadAheadPull.Busy;
                }

                stream.Pulling = 1;
                return ReadAheadPull.Forward;
            }

            bufferedId = stream.BufferedId;
            finished = stream.BufferedFinished || failed is not null;
            reserved = stream.Reserved;
            stream.Buffered = null;
            stream.AheadFailed = null;
            stream.Reserved = 0;
        }

        var consumer = stream.Consumer;
        if (buffered is { } answer)
        {
            if (batch is null)
            {
                // The kept buffer goes out as it is, with the consumer's id spliced in: no second copy.
                consumer.Send(ReplyWriter.SpliceInPlace(answer, bufferedId, idToken));
            }
            else
            {
                batch.Expect();
                batch.CompleteSpliced(answer.Span, bufferedId, idToken);
                answer.Return();
            }

            Interlocked.Increment(ref StreamCounters.Pulls);
        }
        else if (failed is { } error)
        {
            Interlocked.Increment(ref Counters.Errors);
            ReplyWriter.Error(consumer, batch, idToken, error.Code, error.Message, error.Data);
        }

        consumer.Ledger.ReleaseStream(reserved);
        if (finished)
        {
            EndStream(stream, abortGenerator: false);
        }
        else
        {
            ReadAhead(stream);
        }

        return ReadAheadPull.Answered;
    }

    /// <summary>What a stream that ends still holds for reading ahead: the batch kept and its room in the consumer's bound.</summary>
    private static void DropReadAhead(EnumeratorStream stream)
    {
        OutboundMessage? buffered;
        long reserved;
        lock (stream.Gate)
        {
            buffered = stream.Buffered;
            reserved = stream.Reserved;
            stream.Buffered = null;
            stream.Reserved = 0;
            stream.Ahead = null;
            stream.AheadFailed = null;
        }

        buffered?.Return();
        if (reserved > 0)
        {
            stream.Consumer.Ledger.ReleaseStream(reserved);
        }
    }
}
