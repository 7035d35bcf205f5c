using JsonRpc.Server.Diagnostics;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // How often a paused read loop looks again whether its client took what waits for it.
    private const int PausePollMs = 20;

    // Invalid input is read more slowly: each message refused as invalid (parse error, invalid request) delays this
    // client's next read by this much, up to the maximum per read. A client that floods the router with messages it
    // must parse and refuse (100,000-deep nesting, say, at line rate) is held to a few dozen a second through TCP,
    // and a client that sends one bad message now and then barely notices.
    internal const int InvalidMessagePenaltyMs = 20;
    private const int MaxPenaltyMs = 1000;

    // Written and read by the read loop only.
    private int _penaltyMs;

    // The provider this client's last call or notification was queued for (or the caller its last answer was queued
    // for), when more than half of that connection's bound was waiting for it: the read loop waits for it to take
    // them before reading on. Written and read by the read loop.
    private RouterConnection? _congested;

    // Whether _congested is a caller this provider's answers go to: then only its outbound queue counts (the replies
    // its batches gather wait for answers, this provider's among them, and must not hold up the answers they wait for).
    private bool _congestedByAnswers;

    /// <summary>The longest request id the router takes (bytes of its JSON token): see <c>HandleCall</c>.</summary>
    internal const int MaxIdBytes = 1024;

    /// <summary>
    /// Notes that a message from this client was queued for <paramref name="provider"/>: if the provider is behind by
    /// more than half its bound, this client's reading pauses until it catches up, so that a fast caller slows down
    /// to its provider's pace instead of filling its queue until the router drops a provider that was reading all
    /// along. Not for cluster links (one slow provider must not hold up a whole node's traffic) nor for a client
    /// calling itself.
    /// </summary>
    private void NoteQueuedFor(RouterConnection provider)
    {
        if (provider != this && !IsPeer && provider.Ledger.Held > _router.Options.MaxOutboundBufferSize / 2)
        {
            _congested = provider;
            _congestedByAnswers = false;
        }
    }

    // A caller counts as taking its answers while its writer took one this recently; a provider waits for it at most
    // this long at a time, so that no caller, however it reads, holds up a provider that others share for longer.
    private const long TakingWithinMs = 250;
    private const long MaxAnswerPauseMs = 1000;

    /// <summary>
    /// Whether this caller is taking what it is sent right now (its writer took a message within 250 ms): only then is
    /// a provider paused for it. One that does not read is not waited for; its answers wait in its queue until it has
    /// taken nothing for the progress timeout, and it is dropped then.
    /// </summary>
    internal bool IsTakingAnswers => _outbound.IsTaking(Environment.TickCount64, TakingWithinMs);

    /// <summary>
    /// Notes that this provider's answer was queued for <paramref name="caller"/>: if the caller is more than half its
    /// bound behind and taking what it is sent, this provider's reading pauses until the caller is down to a quarter
    /// (for at most a second at a time, and only while the caller keeps taking). Answers to a caller's own pending calls
    /// pass its bound while it takes them, so a caller whose answers were released together, say by a provider that
    /// held them all, is not dropped for taking them at its own pace; pausing whoever answers keeps what the router holds
    /// for it near its bound meanwhile. Not for cluster links nor for a provider answering itself.
    /// </summary>
    private void NoteAnsweredTo(RouterConnection caller)
    {
        if (caller != this && !IsPeer && !caller.IsPeer && caller._outbound.QueuedBytes > _router.Options.MaxOutboundBufferSize / 2
            && caller.IsTakingAnswers)
        {
            _congested = caller;
            _congestedByAnswers = true;
        }
    }

    /// <summary>
    /// Waits until <paramref name="other"/> (the provider this client's calls go to, or the caller its answers go to)
    /// is down to a quarter of its bound, or gone. A connection that takes nothing at all for the progress timeout is
    /// dropped here (its calls then fail, and this client goes on): it may never send anything of its own, so its own
    /// read loop would never find out.
    /// </summary>
    private async ValueTask WaitForCatchUpAsync(RouterConnection other, bool queueOnly)
    {
        Interlocked.Increment(ref _router.Counters.ReadPauses);
        var resumeAt = _router.Options.MaxOutboundBufferSize / 4;
        var pausedAt = Environment.TickCount64;
        while ((queueOnly ? other._outbound.QueuedBytes : other.Ledger.Held) > resumeAt && !other.IsClosing && !IsClosing)
        {
            if (queueOnly && (!other.IsTakingAnswers || Environment.TickCount64 - pausedAt >= MaxAnswerPauseMs))
            {
                return; // a caller that stopped taking, or takes too slowly, no longer holds up this provider
            }

            if (other._outbound.IsStalled(Environment.TickCount64))
            {
                other.Close(CloseReason.OutboundLimitExceeded);
                return;
            }

            await Task.Delay(PausePollMs).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Before the first read: waits as long as this client's address has earned by connections the router closed for
    /// misbehaviour (see <see cref="AddressPenalties"/>), so a client dropped for it cannot take the router's time again
    /// at once. Bytes it sends meanwhile wait in the socket.
    /// </summary>
    private async ValueTask ServeAddressPenaltyAsync()
    {
        var delay = _router.Penalties.DelayFor(RemoteEndPoint, Environment.TickCount64);
        if (delay > TimeSpan.Zero)
        {
            Interlocked.Increment(ref _router.Counters.ReadPauses);
            await Task.Delay(delay).ConfigureAwait(false);
        }
    }

    /// <summary>Counts a close for misbehaviour against this client's address.</summary>
    private void NoteMisbehaviour(CloseReason reason)
    {
        if (reason is CloseReason.MessageTooLarge or CloseReason.InvalidFraming or CloseReason.OutboundLimitExceeded or CloseReason.AccessDenied
            or CloseReason.MessageTimeout)
        {
            _router.Penalties.Strike(RemoteEndPoint, Environment.TickCount64);
        }
    }

    // Since when (Environment.TickCount64) the bytes left after the last read are the start of a message that has not
    // arrived whole; 0 when nothing is left over. Written by the read loop, read by the router's sweep.
    private long _partialSince;

    /// <summary>When the message now arriving began to arrive, or 0 when none is under way.</summary>
    internal long PartialSince => Volatile.Read(ref _partialSince);

    /// <summary>
    /// After each read: a client that keeps a message arriving a byte at a time (slowloris) feeds the keep-alive timer
    /// without ever finishing; the sweep closes it once one message has taken longer than the keep-alive timeout.
    /// </summary>
    private void NotePartialMessage(bool partial)
    {
        if (!partial)
        {
            if (Volatile.Read(ref _partialSince) != 0)
            {
                Volatile.Write(ref _partialSince, 0); // written only on a change: this runs after every read
            }
        }
        else if (Volatile.Read(ref _partialSince) == 0)
        {
            Volatile.Write(ref _partialSince, Environment.TickCount64);
        }
    }

    // The bytes of the message now arriving that the transport holds for this client, as charged to the router's memory
    // budget. Written by the read loop, and once more when the connection ends (after the read loop).
    private long _partialBytes;

    /// <summary>
    /// Charges the start of a message that has not arrived whole to the router's memory budget (thousands of clients
    /// each holding most of a 4 MiB message count there); not to the client's own bound, which would stop reading it
    /// before its message could arrive (<c>max_message_size</c> bounds it per connection).
    /// </summary>
    private void ChargePartialMessage(long bytes)
    {
        if (bytes != _partialBytes)
        {
            _router.Memory.Add(bytes - _partialBytes);
            _partialBytes = bytes;
        }
    }

    /// <summary>Waits out the penalty the last read's invalid messages earned, if any.</summary>
    private ValueTask ServePenaltyAsync()
    {
        if (_penaltyMs == 0)
        {
            return ValueTask.CompletedTask;
        }

        var delay = _penaltyMs;
        _penaltyMs = 0;
        Interlocked.Increment(ref _router.Counters.ReadPauses);
        return new ValueTask(Task.Delay(delay));
    }

    /// <summary>
    /// Whether the read loop should stop taking new work from this client: what the router holds for it (its outbound
    /// queue and the replies its batches gather) is past half of <see cref="JsonRpcRouterOptions.MaxOutboundBufferSize"/>.
    /// New calls from it would only add answers it has not taken yet; leaving its bytes unread in the socket pushes back
    /// on it through TCP, and costs the router nothing (no parsing, no routing, no memory) while it waits.
    /// </summary>
    private bool MustPauseReading => Ledger.Held > _router.Options.MaxOutboundBufferSize / 2;

    /// <summary>
    /// Waits until what the router holds for this client is down to a quarter of the bound (true), or gives up (false)
    /// when the client does not read at all: messages wait for it and its writer has taken none for the progress
    /// timeout. A client whose batches wait on a slow provider, and who reads what it is sent, is never dropped here:
    /// it waits until those batches are answered or time out.
    /// </summary>
    private async ValueTask<bool> WaitForRoomAsync()
    {
        RouterLog.ReadPaused(_logger, ConnectionId, Name, Ledger.Held);
        Interlocked.Increment(ref _router.Counters.ReadPauses);
        var resumeAt = _router.Options.MaxOutboundBufferSize / 4;
        while (Ledger.Held > resumeAt)
        {
            if (IsClosing)
            {
                return false;
            }

            if (_outbound.IsStalled(Environment.TickCount64))
            {
                return false;
            }

            await Task.Delay(PausePollMs).ConfigureAwait(false);
        }

        return !IsClosing;
    }
}
