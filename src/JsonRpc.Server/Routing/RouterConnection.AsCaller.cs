using System.Buffers.Text;
using JsonRpc.Protocol;

namespace JsonRpc.Server.Routing;

/// <summary>
/// A routed call's life as its caller sees it, in one place (the server README has the map of a call's whole life):
/// counted against the caller's limit (<see cref="TryBeginCall"/>), tracked in the caller's list (<see cref="TrackCall"/>)
/// until it is answered, times out, loses its provider or is cancelled (<see cref="CancelRoutedCalls"/>), then forgotten
/// (<see cref="ForgetCall"/>) and counted off (<see cref="CallFinished"/>).
/// </summary>
internal sealed partial class RouterConnection
{
    // Calls this connection made (routed or to host methods) that wait for an answer: the count the limit is held to.
    private int _pendingAsCaller;

    /// <summary>Calls this connection made that wait for an answer.</summary>
    public int PendingAsCaller => Volatile.Read(ref _pendingAsCaller);

    /// <summary>Called when a call this connection made is done, whichever way.</summary>
    internal void CallFinished()
    {
        EndIdentityCall();
        if (Interlocked.Decrement(ref _pendingAsCaller) == 0)
        {
            Volatile.Read(ref _answered)?.TrySetResult(); // an HTTP request's last answer is queued: it may close
        }
    }

    /// <summary>Counts a call against <see cref="JsonRpcRouterOptions.MaxPendingCallsPerConnection"/>, or refuses it.</summary>
    private bool TryBeginCall(BatchReply? batch, ReadOnlySpan<byte> idToken)
    {
        // A cluster node carries the calls of all its clients, each already held to the limit there.
        var pending = Interlocked.Increment(ref _pendingAsCaller);
        if (pending <= _router.Options.MaxPendingCallsPerConnection || IsPeer)
        {
            if (TryBeginIdentityCall(pending, batch, idToken, reply: true))
            {
                return true;
            }

            Interlocked.Decrement(ref _pendingAsCaller);
            return false;
        }

        Interlocked.Decrement(ref _pendingAsCaller);
        Fail(batch, idToken, RouterErrorCodes.TooManyPendingCalls, "Too many pending calls",
            $"At most {_router.Options.MaxPendingCallsPerConnection} calls may wait for answers at once.");
        return false;
    }

    /// <summary>
    /// Counts the router's own read-ahead pull for this consumer like a call of its own, silently: at its pending or
    /// in-flight limit, there is simply no read-ahead (the consumer's pull then goes to the generator itself).
    /// </summary>
    internal bool TryBeginReadAhead()
    {
        var pending = Interlocked.Increment(ref _pendingAsCaller);
        if ((pending <= _router.Options.MaxPendingCallsPerConnection || IsPeer) && TryBeginIdentityCall(pending, null, default, reply: false))
        {
            return true;
        }

        Interlocked.Decrement(ref _pendingAsCaller);
        return false;
    }

    // The routed calls this connection made that wait for an answer, linked through their caller links, newest first.
    // A call is in it from the moment it is rented until it is released (answer, timeout, provider gone, shutdown).
    // Only this connection's read loop (a new call, a cancellation, the disconnect) and the completions of its own calls
    // take the lock, so a cancellation costs this connection's own pending calls (at most MaxPendingCallsPerConnection),
    // whatever the size of the router or the traffic of other clients, and never touches another connection's lock.
    private readonly Lock _callsLock = new();
    private RoutedCall? _calls;

    // The (provider, router id) pairs of one cancellation, sent once the lock is released. Read loop only.
    private List<(RouterConnection Provider, long RouterId)>? _cancelTargets;

    /// <summary>Adds a call this connection made to its pending calls; done before the call can complete.</summary>
    internal void TrackCall(RoutedCall call)
    {
        lock (_callsLock)
        {
            call.CallerNext = _calls;
            if (_calls is not null)
            {
                _calls.CallerPrevious = call;
            }

            _calls = call;
        }
    }

    /// <summary>Removes a completed call from this connection's pending calls, once, before it goes back to the pool.</summary>
    internal void ForgetCall(RoutedCall call)
    {
        lock (_callsLock)
        {
            if (call.CallerPrevious is null)
            {
                _calls = call.CallerNext;
            }
            else
            {
                call.CallerPrevious.CallerNext = call.CallerNext;
            }

            if (call.CallerNext is not null)
            {
                call.CallerNext.CallerPrevious = call.CallerPrevious;
            }

            call.CallerPrevious = call.CallerNext = null;
        }
    }

    /// <summary>
    /// Sends <c>$/cancelRequest</c> to the provider of each routed call this connection made with id
    /// <paramref name="callerId"/> (as it wrote it), or of every one when it is None, under the id that provider saw;
    /// returns how many were told. Walks this connection's own pending calls only. The provider and router id are read
    /// under the lock, so a call completing meanwhile cannot be reused under our feet; at worst its provider, which may
    /// have answered already, gets a cancellation for an id it no longer has, which it ignores.
    /// </summary>
    private int CancelRoutedCalls(in RequestId callerId)
    {
        Span<byte> plain = stackalloc byte[20];
        var plainLength = callerId.TryGetInt64(out var number) && Utf8Formatter.TryFormat(number, plain, out var written) ? written : 0;
        var targets = _cancelTargets ??= [];
        var examined = 0;
        lock (_callsLock)
        {
            for (var call = _calls; call is not null; call = call.CallerNext)
            {
                examined++;
                if (callerId.IsNone || SameId(call.CallerId, callerId, plain[..plainLength]))
                {
                    targets.Add((call.Provider, call.RouterId));
                }
            }
        }

        foreach (var (provider, routerId) in targets)
        {
            provider.SendCancel(routerId);
        }

        var count = targets.Count;
        targets.Clear();
        var counters = _router.Counters;
        Interlocked.Add(ref counters.CallsExaminedByCancels, examined);
        Interlocked.Add(ref counters.CancelsForwarded, count);
        return count;
    }

    // The common case, an integer id written plainly, compares bytes; any other spelling is read and compared as an id.
    private static bool SameId(ReadOnlySpan<byte> token, in RequestId id, ReadOnlySpan<byte> plain)
        => (!plain.IsEmpty && token.SequenceEqual(plain)) || (RequestId.TryParse(token, out var other) && other == id);
}
