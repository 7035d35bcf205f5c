using System.Buffers.Text;
using System.Collections.Concurrent;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;
using JsonRpc.Server.Streams;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    // Every enumerable crossing the router, by the router's token (what its consumer pulls with).
    private readonly ConcurrentDictionary<long, EnumeratorStream> _streams = new();
    private long _nextStreamToken;

    // The tokens the router gives StreamJsonRpc progress arguments in place of the callers' (RouterConnection.Streams.cs):
    // far above the small integers StreamJsonRpc numbers its own from, within JavaScript's safe integers.
    internal const long ProgressTokenBase = 1L << 52;
    private long _nextProgressToken = ProgressTokenBase;

    /// <summary>What streams and progress did, for tests and logs.</summary>
    internal StreamCounters StreamCounters { get; } = new();

    /// <summary>Enumerables crossing the router now.</summary>
    internal int OpenStreams => _streams.Count;

    /// <summary>The next token of the router's sequence, shared by routed streams and host methods' enumerables.</summary>
    internal long NextStreamToken() => Interlocked.Increment(ref _nextStreamToken);

    /// <summary>A progress token unique in this router, for a StreamJsonRpc progress argument the router maps.</summary>
    internal long NextProgressToken() => Interlocked.Increment(ref _nextProgressToken);

    /// <summary>
    /// Opens a stream from <paramref name="generator"/> (which wrote <paramref name="generatorToken"/>) to
    /// <paramref name="consumer"/>; null when either is leaving or the consumer's memory bound has no room for it.
    /// </summary>
    internal EnumeratorStream? OpenStream(RouterConnection generator, RouterConnection consumer, ReadOnlySpan<byte> generatorToken)
    {
        var stream = new EnumeratorStream(NextStreamToken(), generator, consumer, generatorToken.ToArray());
        if (!consumer.Ledger.TryReserveStream(EnumeratorStream.Cost, Options.MaxOutboundBufferSize))
        {
            RouterLog.StreamRefused(Logger, consumer.ConnectionId, consumer.Name, Options.MaxOutboundBufferSize);
            return null;
        }

        if (!consumer.TryAttachStream(stream) || !generator.TryAttachStream(stream))
        {
            consumer.DetachStream(stream);
            consumer.Ledger.ReleaseStream(EnumeratorStream.Cost);
            return null;
        }

        _streams[stream.Token] = stream;
        Interlocked.Increment(ref StreamCounters.StreamsOpened);
        return stream;
    }

    /// <summary>The stream of <paramref name="token"/> if <paramref name="consumer"/> is the one that pulls it.</summary>
    internal bool TryGetStream(long token, RouterConnection consumer, out EnumeratorStream stream)
        => _streams.TryGetValue(token, out stream!) && stream.Consumer == consumer && Volatile.Read(ref stream.Ended) == 0;

    /// <summary>
    /// Takes a stream out of the router, once; with <paramref name="abortGenerator"/> the generator is told
    /// <c>$/enumerator/abort</c> under its own token, so that it disposes its enumerator.
    /// </summary>
    internal bool EndStream(EnumeratorStream stream, bool abortGenerator)
    {
        if (Interlocked.Exchange(ref stream.Ended, 1) != 0)
        {
            return false;
        }

        _streams.TryRemove(stream.Token, out _);
        stream.Consumer.DetachStream(stream);
        stream.Generator.DetachStream(stream);
        stream.Consumer.Ledger.ReleaseStream(EnumeratorStream.Cost);
        DropReadAhead(stream);
        Interlocked.Increment(ref StreamCounters.StreamsEnded);
        if (abortGenerator && !stream.Generator.IsClosing)
        {
            stream.Generator.Send(StreamMessages.Abort(stream.GeneratorToken));
            Interlocked.Increment(ref StreamCounters.AbortsSent);
        }

        return true;
    }

    /// <summary>
    /// A call that touched streams ends (from <see cref="Release"/>): a pull still set here was not answered by its
    /// generator (a timeout, the generator gone, shutdown), which ends the stream (an answered pull was settled before
    /// its answer went); the streams the call's arguments opened end with it (StreamJsonRpc drops them when the answer
    /// comes).
    /// </summary>
    private void CallStreamsEnded(RoutedCall call)
    {
        if (call.Pull is { } pull)
        {
            EndStream(pull, abortGenerator: false);
        }

        if (call.ArgumentStreams is { } streams)
        {
            foreach (var stream in streams)
            {
                EndStream(stream, abortGenerator: false);
            }
        }
    }

    /// <summary>Delivers <paramref name="answer"/>, already under the caller's id, to the call's caller, and ends the call.</summary>
    internal void CompleteCallAs(RoutedCall call, OutboundMessage answer)
    {
        if (call.Batch is { } batch)
        {
            batch.Complete(answer.Span);
            answer.Return();
        }
        else
        {
            call.Caller.Send(answer, owed: true);
        }

        Release(call);
    }

    /// <summary>Formats the router's token of a stream.</summary>
    internal static byte[] TokenBytes(long token)
    {
        Span<byte> digits = stackalloc byte[20];
        Utf8Formatter.TryFormat(token, digits, out var length);
        return digits[..length].ToArray();
    }
}

/// <summary>Counters of streams and progress (not in <see cref="JsonRpcRouterStats"/>): tests and logs read them.</summary>
internal sealed class StreamCounters
{
    public long ProgressRouted;
    public long ProgressDropped;
    public long ProgressAmbiguous;
    public long ProgressMapped;
    public long StreamsOpened;
    public long StreamsEnded;
    public long Pulls;
    public long ReadAheads;
    public long AbortsSent;
}
