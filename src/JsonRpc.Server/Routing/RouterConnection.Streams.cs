using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Streams;

namespace JsonRpc.Server.Routing;

/// <summary>
/// Streams and progress through the router, as StreamJsonRpc, LSP and MCP peers use them directly:
/// <list type="bullet">
/// <item>Progress: a provider's <c>$/progress</c> or <c>notifications/progress</c> goes, byte for byte, to the caller of
/// the call in its in-flight table whose params carried that token (<see cref="StreamScanner.CollectProgress"/>),
/// and to nobody when no call or more than one caller's calls carry it; in the provider's order, so before the answer.
/// Once two calls of a method have had progress by the same integer argument, that argument is known to be a
/// StreamJsonRpc progress token: later calls of the method get a token of the router's in its place (unique, so two
/// callers that number their tokens alike no longer meet), and their progress goes back under the caller's own.</item>
/// <item>Async enumerables: an enumerable object (<c>{"token": n, "values": […]}</c>) in an answer or in a call's
/// arguments opens a <see cref="EnumeratorStream"/>; the consumer sees the router's token, and its
/// <c>$/enumerator/next</c> and <c>$/enumerator/abort</c> are routed to the generator under the generator's own token.
/// A pull is a routed call like any other (timeouts, disconnects and cancellation apply); one at a time per stream.</item>
/// </list>
/// </summary>
internal sealed partial class RouterConnection
{
    // The streams this connection generates or consumes (for its disconnect); closed with it.
    private readonly Lock _streamsLock = new();
    private HashSet<EnumeratorStream>? _streams;
    private bool _streamsClosed;

    // Under the in-flight lock: which call of this provider each progress token it reported on belongs to.
    private Dictionary<ProgressToken, (RoutedCall Call, long RouterId)>? _progressRoutes;

    // Under the in-flight lock: per method routed to this provider, which integer arguments its progress has proved to
    // be tokens. _progressLearned says (without the lock) that some argument has been, so most calls skip the lock.
    private Dictionary<RouteEntry, ProgressSlots>? _progressSlots;
    private volatile bool _progressLearned;

    // The methods per provider whose integer arguments are followed (a provider that keeps registering new ones gains
    // nothing past it but unchanged calls).
    private const int MaxProgressMethods = 1024;

    // Per thread, reused; at most MaxEnumerablesPerMessage + 1 entries, so they stay small.
    [ThreadStatic]
    private static List<Range>? t_ranges;

    [ThreadStatic]
    private static List<StreamMessages.Edit>? t_edits;

    internal bool TryAttachStream(EnumeratorStream stream)
    {
        lock (_streamsLock)
        {
            if (_streamsClosed || IsClosing)
            {
                return false;
            }

            (_streams ??= []).Add(stream);
            return true;
        }
    }

    internal void DetachStream(EnumeratorStream stream)
    {
        lock (_streamsLock)
        {
            _streams?.Remove(stream);
        }
    }

    /// <summary>
    /// At disconnect: the streams this connection consumed end and their generators are told to abort. Those it
    /// generated stay until their consumers next pull, which then fails with <see cref="RouterErrorCodes.ProviderDisconnected"/>
    /// (a pull on its way fails at once with the calls waiting on this connection).
    /// </summary>
    private void EndStreams()
    {
        EnumeratorStream[] streams;
        lock (_streamsLock)
        {
            _streamsClosed = true;
            if (_streams is not { Count: > 0 })
            {
                return;
            }

            streams = [.. _streams];
        }

        foreach (var stream in streams)
        {
            if (stream.Consumer == this)
            {
                _router.EndStream(stream, abortGenerator: true);
            }
        }
    }

    /// <summary>
    /// The copy of a call sent to its provider, under the router's id: notes the progress tokens its params may carry
    /// and opens a stream for each enumerable among its arguments (their tokens exchanged for the router's). False when
    /// a stream could not be opened; the call has then been answered with an error.
    /// </summary>
    private bool TryForwardCall(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, RoutedCall call, ReadOnlySpan<byte> routerId, out OutboundMessage forwarded)
    {
        var (paramsStart, paramsLength) = info.Params.GetOffsetAndLength(message.Length);
        var edits = t_edits ??= [];
        edits.Clear();
        if (paramsLength > 0)
        {
            var @params = message.Slice(paramsStart, paramsLength);
            StreamScanner.CollectProgress(@params, call.Progress);
            if (call.HasProgress && call.Provider._progressLearned)
            {
                call.Provider.MapLearnedProgress(call, paramsStart, paramsLength, edits);
            }

            if (StreamScanner.MayHoldEnumerable(@params))
            {
                return TryForwardWithStreams(message, in info, call, routerId, paramsStart, edits, out forwarded);
            }
        }

        forwarded = Forward(message, in info, routerId, edits);
        return true;
    }

    /// <summary>The call under the router's id, with <paramref name="edits"/> (to its params) made.</summary>
    private static OutboundMessage Forward(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> routerId, List<StreamMessages.Edit> edits)
    {
        if (edits.Count == 0)
        {
            return ReplyWriter.Splice(message, info.IdToken, routerId);
        }

        edits.Add(StreamMessages.Edit.Of(info.IdToken, 0, message.Length, routerId.ToArray()));
        return StreamMessages.Splice(message, edits);
    }

    /// <summary>
    /// As a call is forwarded to this provider: each integer argument of it that this provider's progress has proved
    /// to be a progress token (<see cref="ProgressSlots"/>) is given a token of the router's, unique in the router, in
    /// place of the caller's; the call keeps both, so that its progress goes back under the caller's own.
    /// </summary>
    private void MapLearnedProgress(RoutedCall call, int paramsStart, int paramsLength, List<StreamMessages.Edit> edits)
    {
        if (call.Route is not { } route)
        {
            return;
        }

        lock (_inFlightLock)
        {
            if (_progressSlots is null || !_progressSlots.TryGetValue(route, out var slots) || !slots.AnyLearned)
            {
                return;
            }

            var tokens = call.Progress;
            for (var i = 0; i < tokens.Count; i++)
            {
                var token = tokens[i];
                if (token.Named || token.Slot == ProgressToken.NoSlot || !slots.IsLearned(token.Slot))
                {
                    continue;
                }

                var mapped = _router.NextProgressToken();
                tokens[i] = new ProgressToken(mapped, null, named: true) { IsMapped = true, Original = token.Number, Slot = token.Slot };
                edits.Add(StreamMessages.Edit.Of(token.Value, paramsStart, paramsLength, JsonRpcRouter.TokenBytes(mapped)));
                Interlocked.Increment(ref _router.StreamCounters.ProgressMapped);
            }
        }
    }

    private bool TryForwardWithStreams(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, RoutedCall call, ReadOnlySpan<byte> routerId,
        int paramsStart, List<StreamMessages.Edit> edits, out OutboundMessage forwarded)
    {
        var @params = message[info.Params];
        var ranges = t_ranges ??= [];
        ranges.Clear();
        StreamScanner.FindEnumerables(@params, includeRoot: false, ranges);
        if (ranges.Count == 0)
        {
            forwarded = Forward(message, in info, routerId, edits);
            return true;
        }

        if (ranges.Count > StreamScanner.MaxEnumerablesPerMessage)
        {
            forwarded = default;
            _router.FailCall(call, JsonRpcErrorCodes.InvalidParams, "Invalid params",
                $"A call may carry at most {StreamScanner.MaxEnumerablesPerMessage} async enumerables.");
            return false;
        }

        edits.Add(StreamMessages.Edit.Of(info.IdToken, 0, message.Length, routerId.ToArray()));
        var streams = call.ArgumentStreams = new List<EnumeratorStream>(ranges.Count);
        foreach (var range in ranges)
        {
            // The caller generates, the provider consumes; the streams end with the call.
            if (_router.OpenStream(this, call.Provider, @params[range]) is not { } stream)
            {
                forwarded = default;
                _router.FailCall(call, RouterErrorCodes.Overloaded, "Stream refused",
                    $"'{call.Provider.Name}' cannot take another stream now: its buffers are at their bound.");
                return false;
            }

            streams.Add(stream);
            edits.Add(StreamMessages.Edit.Of(range, paramsStart, @params.Length, JsonRpcRouter.TokenBytes(stream.Token)));
        }

        forwarded = StreamMessages.Splice(message, edits);
        return true;
    }

    /// <summary>
    /// A provider's answer to a routed call: a pull's answer tells whether its stream goes on; an answer carrying
    /// enumerables opens a stream for each (their tokens exchanged for the router's); any other goes as before.
    /// </summary>
    private void CompleteRouted(RoutedCall call, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (call.Pull is { } pull)
        {
            // Settled before the answer goes: the consumer may send its next pull the moment it has this one.
            var goesOn = info.Kind == JsonRpcMessageKind.Response && !StreamScanner.IsFinished(message[info.Result]);
            if (pull.ReadsAhead && _router.TryKeepReadAhead(call, pull, message, info.IdToken, finished: !goesOn))
            {
                return; // the router's own pull: kept for the consumer's next
            }

            call.Pull = null;
            if (goesOn)
            {
                Volatile.Write(ref pull.Pulling, 0);
            }
            else
            {
                _router.EndStream(pull, abortGenerator: false);
            }

            _router.CompleteCall(call, message, info.IdToken);
            if (goesOn)
            {
                _router.ReadAhead(pull); // the consumer has this batch: fetch the next while it works through it
            }

            return;
        }
        else if (info.Kind == JsonRpcMessageKind.Response && StreamScanner.MayHoldEnumerable(message[info.Result]))
        {
            CompleteWithStreams(call, message, in info);
            return;
        }

        _router.CompleteCall(call, message, info.IdToken);
    }

    private void CompleteWithStreams(RoutedCall call, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        var (resultStart, _) = info.Result.GetOffsetAndLength(message.Length);
        var result = message[info.Result];
        var ranges = t_ranges ??= [];
        ranges.Clear();
        StreamScanner.FindEnumerables(result, includeRoot: true, ranges, out var rootPrefetched);
        if (ranges.Count == 0)
        {
            _router.CompleteCall(call, message, info.IdToken);
            return;
        }

        if (ranges.Count > StreamScanner.MaxEnumerablesPerMessage)
        {
            // Nothing is opened, and no abort sent for each: a generator that sends so many misbehaves; they live until it leaves.
            _router.FailCall(call, JsonRpcErrorCodes.InternalError, "Internal error",
                $"The answer carries more than {StreamScanner.MaxEnumerablesPerMessage} async enumerables; the router passes at most that many.");
            return;
        }

        // A generator that sent values with its token prefetches: the router may read that stream ahead too. In a
        // cluster the node of the consumer does (a stream crossing nodes is read ahead once, next to its consumer).
        var prefetched = rootPrefetched && _router.Options.StreamReadAhead && !call.Caller.IsPeer ? ranges.Count - 1 : -1;
        var edits = t_edits ??= [];
        edits.Clear();
        edits.Add(StreamMessages.Edit.Of(info.IdToken, 0, message.Length, call.CallerId.ToArray()));
        List<EnumeratorStream>? opened = null;
        for (var i = 0; i < ranges.Count; i++)
        {
            var range = ranges[i];

            // This provider generates, the caller consumes; the streams outlive the call.
            if (_router.OpenStream(this, call.Caller, result[range]) is not { } stream)
            {
                // Nobody will pull: the generator disposes every enumerator of this answer.
                foreach (var open in opened ?? [])
                {
                    _router.EndStream(open, abortGenerator: true);
                }

                foreach (var other in ranges[(opened?.Count ?? 0)..])
                {
                    Send(StreamMessages.Abort(result[other]));
                }

                _router.FailCall(call, RouterErrorCodes.Overloaded, "Stream refused",
                    "The answer carries a stream that the caller's buffers have no room for.");
                return;
            }

            if (i == prefetched)
            {
                stream.LastBatchBytes = message.Length;
                stream.ReadsAhead = true;
            }

            (opened ??= []).Add(stream);
            edits.Add(StreamMessages.Edit.Of(range, resultStart, result.Length, JsonRpcRouter.TokenBytes(stream.Token)));
        }

        _router.CompleteCallAs(call, StreamMessages.Splice(message, edits));
        foreach (var stream in opened!)
        {
            if (stream.ReadsAhead)
            {
                _router.ReadAhead(stream); // the consumer has the first batch: fetch the next while it works through it
            }
        }
    }

    /// <summary>
    /// <c>$/enumerator/next</c> or <c>$/enumerator/abort</c> sent as a call: routed to the generator of this
    /// connection's stream of that token, under the generator's token. An unknown token is answered -32001, as a
    /// StreamJsonRpc generator answers it.
    /// </summary>
    private void HandleStreamCall(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> idToken, BatchReply? batch, bool abort)
    {
        var (paramsStart, _) = info.Params.GetOffsetAndLength(message.Length);
        if (!StreamScanner.TryReadEnumeratorToken(message[info.Params], out var token, out var range) || !_router.TryGetStream(token, this, out var stream))
        {
            if (TryServeHostEnumerator(message, in info, idToken, batch))
            {
                return;
            }

            RouterLog.StreamUnknown(_logger, abort ? "$/enumerator/abort" : "$/enumerator/next", ConnectionId, Name, token);
            Fail(batch, idToken, StreamMessages.UnknownToken, "Unknown enumerator token",
                "This connection has no stream of that token: it finished, was aborted or failed, or never was.");
            return;
        }

        var generator = stream.Generator;
        if (generator.IsClosing)
        {
            _router.EndStream(stream, abortGenerator: false);
            Fail(batch, idToken, RouterErrorCodes.ProviderDisconnected, "Provider disconnected",
                $"'{generator.Name}', which generated the stream, disconnected.");
            return;
        }

        if (!abort && stream.ReadsAhead)
        {
            switch (_router.PullReadAhead(stream, idToken, batch))
            {
                case JsonRpcRouter.ReadAheadPull.Answered or JsonRpcRouter.ReadAheadPull.TookOver:
                    return;
                case JsonRpcRouter.ReadAheadPull.Busy:
                    Fail(batch, idToken, JsonRpcErrorCodes.InvalidRequest, "Invalid Request",
                        "A $/enumerator/next of this stream is already waiting for its answer.");
                    return;
            }
        }
        else if (!abort && Interlocked.Exchange(ref stream.Pulling, 1) != 0)
        {
            Fail(batch, idToken, JsonRpcErrorCodes.InvalidRequest, "Invalid Request",
                "A $/enumerator/next of this stream is already waiting for its answer.");
            return;
        }

        if (!TryBeginCall(batch, idToken))
        {
            Volatile.Write(ref stream.Pulling, 0);
            return;
        }

        var call = _router.RentCall(this, generator, idToken, batch);
        batch?.Expect();
        if (abort)
        {
            _router.EndStream(stream, abortGenerator: false);
        }
        else
        {
            call.Pull = stream;
        }

        var edits = t_edits ??= [];
        edits.Clear();
        edits.Add(StreamMessages.Edit.Of(info.IdToken, 0, message.Length, JsonRpcRouter.TokenBytes(call.RouterId)));
        edits.Add(StreamMessages.Edit.Of(range, paramsStart, message.Length, stream.GeneratorToken));
        var forwarded = StreamMessages.Splice(message, edits);
        if (!generator.TryAddInFlight(call))
        {
            forwarded.Return();
            _router.FailCall(call, RouterErrorCodes.ProviderDisconnected, "Provider disconnected");
            return;
        }

        Interlocked.Increment(ref _router.Counters.CallsRouted);
        Interlocked.Increment(ref _router.StreamCounters.Pulls);
        generator.Send(forwarded);
    }

    /// <summary>
    /// A stream or progress notification; true when it was one (it is then handled: such a notification never
    /// reaches a provider of that name or the subscribers of an event of that name).
    /// </summary>
    private bool TryHandleStreamNotification(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method)
    {
        switch (StreamMethods.Match(method))
        {
            case StreamMethod.Progress:
                RouteProgress(message, in info, mcp: false);
                return true;
            case StreamMethod.McpProgress:
                RouteProgress(message, in info, mcp: true);
                return true;
            case StreamMethod.EnumeratorAbort:
                AbortStream(message, in info);
                return true;
            case StreamMethod.EnumeratorNext:
                return true; // a pull needs an answer: as a notification it means nothing
            default:
                return false;
        }
    }

    /// <summary><c>$/enumerator/abort</c> as a notification: the stream ends and its generator gets the abort under its token.</summary>
    private void AbortStream(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        var (paramsStart, _) = info.Params.GetOffsetAndLength(message.Length);
        if (!StreamScanner.TryReadEnumeratorToken(message[info.Params], out var token, out var range) || !_router.TryGetStream(token, this, out var stream))
        {
            if (!TryServeHostEnumerator(message, in info, default, null))
            {
                RouterLog.StreamUnknown(_logger, "$/enumerator/abort", ConnectionId, Name, token);
            }

            return;
        }

        if (_router.EndStream(stream, abortGenerator: false) && !stream.Generator.IsClosing)
        {
            var edits = t_edits ??= [];
            edits.Clear();
            edits.Add(StreamMessages.Edit.Of(range, paramsStart, message.Length, stream.GeneratorToken));
            stream.Generator.Send(StreamMessages.Splice(message, edits));
            Interlocked.Increment(ref _router.StreamCounters.AbortsSent);
        }
    }

    /// <summary>A progress notification from this connection, as the provider of calls: to the one caller whose call carries its token.</summary>
    private void RouteProgress(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, bool mcp)
    {
        var counters = _router.StreamCounters;
        if (!StreamScanner.TryReadProgressToken(message[info.Params], mcp, out var token, out var tokenRange))
        {
            Interlocked.Increment(ref counters.ProgressDropped);
            RouterLog.ProgressDropped(_logger, ConnectionId, Name, "?", "it carries no token");
            return;
        }

        if (ResolveProgress(token, out var ambiguous, out var carried) is not { } caller)
        {
            Interlocked.Increment(ref counters.ProgressDropped);
            if (ambiguous)
            {
                Interlocked.Increment(ref counters.ProgressAmbiguous);
            }

            RouterLog.ProgressDropped(_logger, ConnectionId, Name, token.ToString(),
                ambiguous ? "calls of several callers carry that token" : "no call waiting on this connection carries that token");
            return;
        }

        OutboundMessage forwarded;
        if (!carried.IsMapped)
        {
            forwarded = ReplyWriter.Copy(message);
        }
        else
        {
            // The provider reported under the router's token: the caller gets its own back, nothing else changed.
            var edits = t_edits ??= [];
            edits.Clear();
            var (paramsStart, paramsLength) = info.Params.GetOffsetAndLength(message.Length);
            edits.Add(StreamMessages.Edit.Of(tokenRange, paramsStart, paramsLength, JsonRpcRouter.TokenBytes(carried.Original)));
            forwarded = StreamMessages.Splice(message, edits);
        }

        if (caller.Send(forwarded))
        {
            Interlocked.Increment(ref counters.ProgressRouted);
        }
    }

    /// <summary>
    /// The caller of the call in this connection's in-flight table that carries <paramref name="token"/>: a call that
    /// names it (LSP, MCP) before one that only has it as an integer argument (StreamJsonRpc); null when none does, or
    /// when the calls of several callers do (<paramref name="ambiguous"/>): then nobody gets it, so it never crosses over.
    /// Remembered until that call ends, or another call with the token arrives. <paramref name="carried"/> is the token as
    /// that call carries it (with the caller's own, when the router mapped it).
    /// </summary>
    private RouterConnection? ResolveProgress(in ProgressToken token, out bool ambiguous, out ProgressToken carried)
    {
        ambiguous = false;
        carried = default;
        lock (_inFlightLock)
        {
            if (_progressRoutes is { } routes && routes.TryGetValue(token, out var route))
            {
                if (_inFlight.TryGetValue(route.RouterId, out var live) && live == route.Call && !live.Caller.IsClosing)
                {
                    carried = Carried(live, token, out _);
                    return live.Caller;
                }

                routes.Remove(token);
            }

            RoutedCall? named = null, plain = null;
            bool namedAmbiguous = false, plainAmbiguous = false;
            var plainCalls = 0;
            foreach (var call in _inFlight.Values)
            {
                // A caller that left has no tokens any more (its calls wait here only for the provider's answers).
                if (!call.HasProgress || call.Caller.IsClosing)
                {
                    continue;
                }

                foreach (var candidate in call.Progress)
                {
                    if (!candidate.Equals(token))
                    {
                        continue;
                    }

                    if (candidate.Named)
                    {
                        namedAmbiguous |= named is not null && named.Caller != call.Caller;
                        named ??= call;
                    }
                    else
                    {
                        plainAmbiguous |= plain is not null && plain.Caller != call.Caller;
                        plain ??= call;
                        plainCalls++;
                    }

                    break;
                }
            }

            var chosen = named is not null ? (namedAmbiguous ? null : named) : (plainAmbiguous ? null : plain);
            if (chosen is null)
            {
                ambiguous = namedAmbiguous || plainAmbiguous;
                return null;
            }

            (_progressRoutes ??= [])[token] = (chosen, chosen.RouterId);
            chosen.ProgressRouted = true;
            carried = Carried(chosen, token, out var carriers);
            if (!carried.Named && plainCalls == 1 && carriers == 1 && chosen.Route is { } method)
            {
                // One integer argument of one call carries it: evidence that this argument of the method is a token.
                if (!(_progressSlots ??= []).TryGetValue(method, out var slots) && _progressSlots.Count < MaxProgressMethods)
                {
                    _progressSlots[method] = slots = new ProgressSlots();
                }

                if (slots is not null && slots.Prove(carried.Slot, chosen.RouterId))
                {
                    _progressLearned = true;
                }
            }

            return chosen.Caller;
        }
    }

    // The first of the call's tokens equal to token (named before integer ones), and how many of them are.
    private static ProgressToken Carried(RoutedCall call, in ProgressToken token, out int count)
    {
        ProgressToken found = default;
        count = 0;
        foreach (var candidate in call.Progress)
        {
            if (candidate.Equals(token))
            {
                if (count++ == 0 || (candidate.Named && !found.Named))
                {
                    found = candidate;
                }
            }
        }

        return found;
    }

    /// <summary>
    /// What a provider's progress has shown of one method's integer arguments: an argument (a slot) whose value was the
    /// token of a report, the only argument of the only call carrying it, in two different calls, is a progress token.
    /// Two calls, so that one integer that happened to equal another call's token proves nothing. At most
    /// <see cref="MaxSlots"/> slots per method are followed.
    /// </summary>
    private sealed class ProgressSlots
    {
        private const int MaxSlots = 4;
        private readonly long[] _slots = new long[MaxSlots];
        private readonly long[] _firstCall = new long[MaxSlots];
        private readonly bool[] _learned = new bool[MaxSlots];
        private int _count;

        public bool AnyLearned { get; private set; }

        public bool IsLearned(long slot)
        {
            for (var i = 0; i < _count; i++)
            {
                if (_slots[i] == slot)
                {
                    return _learned[i];
                }
            }

            return false;
        }

        /// <summary>Notes evidence from the call <paramref name="routerId"/>; true when the slot is now known to be a token.</summary>
        public bool Prove(long slot, long routerId)
        {
            if (slot == ProgressToken.NoSlot)
            {
                return false;
            }

            for (var i = 0; i < _count; i++)
            {
                if (_slots[i] == slot)
                {
                    if (!_learned[i] && _firstCall[i] != routerId)
                    {
                        _learned[i] = AnyLearned = true;
                    }

                    return _learned[i];
                }
            }

            if (_count < MaxSlots)
            {
                _slots[_count] = slot;
                _firstCall[_count] = routerId;
                _count++;
            }

            return false;
        }
    }

    // Under the in-flight lock, as a call that may carry progress tokens arrives: a token already routed to another
    // call is looked up afresh, so that two callers' calls with one token are seen as ambiguous.
    private void ProgressCallAdded(RoutedCall call)
    {
        foreach (var token in call.Progress)
        {
            _progressRoutes!.Remove(token);
        }
    }

    // Under the in-flight lock, as a call whose progress was routed leaves the table: its tokens are forgotten.
    private void ProgressCallRemoved(RoutedCall call)
    {
        foreach (var token in call.Progress)
        {
            if (_progressRoutes!.TryGetValue(token, out var route) && route.Call == call)
            {
                _progressRoutes.Remove(token);
            }
        }
    }
}
