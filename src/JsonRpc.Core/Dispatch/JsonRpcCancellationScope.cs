using System.Buffers;
using System.Runtime.InteropServices;
using JsonRpc.Dispatch.Streams;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

/// <summary>
/// The calls one peer has running, by id, so that the peer's <c>$/cancelRequest</c> notifications
/// (<see cref="JsonRpcProtocolMethods.CancelRequest"/>) cancel the tokens their handlers got. One per connection: a
/// peer can only ever cancel its own calls. Thread-safe.
/// </summary>
/// <remarks>
/// <see cref="JsonRpcDispatcher.DispatchAsync(ReadOnlyMemory{byte}, IBufferWriter{byte}, JsonRpcCancellationScope)"/>
/// uses it on its own. A host that runs handlers elsewhere calls <see cref="Begin"/> where it reads the call (so that a
/// cancellation read right after it is never missed), hands the token to the handler, and calls <see cref="End"/> once
/// the handler is done.
/// <para>
/// The scope is also the connection's state for what outlives a call: the async enumerables its peer pulls (disposed
/// by <see cref="CancelAll"/>, which a host calls when the connection ends) and, when created with a
/// <see cref="JsonRpcPeerChannel"/>, the way back to the peer for progress notifications.
/// </para>
/// </remarks>
public sealed class JsonRpcCancellationScope : IDisposable
{
    private static readonly CancellationToken Cancelled = new(canceled: true);

    private readonly Lock _lock = new();
    private readonly Dictionary<RequestId, Running> _running = [];
    private readonly CancellationTokenRegistration _outer;
    private readonly CancellationToken _cancelAll;
    private bool _closed;
    private EnumeratorTable? _enumerators;
    private long _lastEnumeratorToken;

    /// <summary>Creates a scope.</summary>
    /// <param name="cancelAll">When cancelled (typically: the connection closed), every call's token is cancelled, now and later.</param>
    /// <param name="peer">The way back to the peer: the progress reports of its calls go there. Null: they go nowhere.</param>
    public JsonRpcCancellationScope(CancellationToken cancelAll = default, JsonRpcPeerChannel? peer = null)
    {
        Peer = peer;
        _cancelAll = cancelAll;
        if (cancelAll.CanBeCanceled)
        {
            _outer = cancelAll.UnsafeRegister(static state => ((JsonRpcCancellationScope)state!).CancelAll(), this);
        }
    }

    /// <summary>The way back to the peer, if the host gave one.</summary>
    public JsonRpcPeerChannel? Peer { get; }

    /// <summary>How many async enumerables the peer may still pull (served, not yet finished, aborted or closed).</summary>
    public int OpenEnumerators => Volatile.Read(ref _enumerators)?.Count ?? 0;

    /// <summary>The connection's enumerables, created with the first (closed at once when the scope is).</summary>
    internal EnumeratorTable Enumerators
    {
        get
        {
            if (Volatile.Read(ref _enumerators) is { } table)
            {
                return table;
            }

            lock (_lock)
            {
                if (_enumerators is null)
                {
                    var created = new EnumeratorTable();
                    if (_closed)
                    {
                        created.Close();
                    }

                    Volatile.Write(ref _enumerators, created);
                }

                return _enumerators;
            }
        }
    }

    /// <summary>The token of the next enumerable served to this peer: the channel's, else 1, 2, 3… per scope.</summary>
    internal long NextEnumeratorToken() => Peer?.NextEnumeratorToken() ?? Interlocked.Increment(ref _lastEnumeratorToken);

    /// <summary>How many calls are tracked.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _running.Count;
            }
        }
    }

    /// <summary>
    /// Starts tracking the call <paramref name="id"/> and returns the token its handler gets. A notification
    /// (<see cref="RequestId.None"/>) has no id to cancel it by: it gets the token the scope was created with.
    /// </summary>
    public CancellationToken Begin(RequestId id)
    {
        if (id.IsNone)
        {
            return _cancelAll;
        }

        var source = new Running();
        lock (_lock)
        {
            if (_closed)
            {
                return Cancelled;
            }

            // A peer may reuse an id while the first call runs: both are kept, and a cancellation reaches both.
            ref var slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_running, id, out _);
            source.Next = slot;
            slot = source;
        }

        return source.Token;
    }

    /// <summary>Stops tracking the call that <see cref="Begin"/> gave <paramref name="token"/>.</summary>
    public void End(RequestId id, CancellationToken token)
    {
        if (id.IsNone)
        {
            return;
        }

        lock (_lock)
        {
            // The usual case, one call of that id: one lookup.
            if (!_running.Remove(id, out var head))
            {
                return;
            }

            if (head.Token == token)
            {
                if (head.Next is { } next)
                {
                    _running.Add(id, next);
                }

                return;
            }

            _running.Add(id, head);
            for (var previous = head; previous.Next is { } current; previous = current)
            {
                if (current.Token == token)
                {
                    previous.Next = current.Next;
                    return;
                }
            }
        }
    }

    /// <summary>Cancels the running call(s) of that id; false when none runs (unknown, or already finished).</summary>
    public bool Cancel(RequestId id)
    {
        Running? found;
        lock (_lock)
        {
            if (!_running.Remove(id, out found))
            {
                return false;
            }
        }

        // Outside the lock: cancellation runs the handlers' callbacks.
        for (var source = found; source is not null; source = source.Next)
        {
            Cancel(source);
        }

        return true;
    }

    /// <summary>
    /// Cancels the call named by the params of a <c>$/cancelRequest</c> (<c>{"id": …}</c>). False when the params are
    /// not of that shape or no call of that id runs; never throws.
    /// </summary>
    public bool Cancel(ReadOnlySpan<byte> cancelRequestParams)
        => JsonRpcProtocolMethods.TryReadCancelRequestId(cancelRequestParams, out var id) && Cancel(id);

    /// <summary>
    /// Cancels every call tracked, and the token of every call begun from now on; disposes the async enumerables the
    /// peer could still pull, and refuses new ones.
    /// </summary>
    public void CancelAll()
    {
        Running[] all;
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            _closed = true;
            all = [.. _running.Values];
            _running.Clear();
        }

        _enumerators?.Close();

        foreach (var head in all)
        {
            for (var source = head; source is not null; source = source.Next)
            {
                Cancel(source);
            }
        }
    }

    /// <summary>Cancels everything (<see cref="CancelAll"/>) and stops listening to the token given at creation.</summary>
    public void Dispose()
    {
        _outer.Dispose();
        CancelAll();
    }

    private static void Cancel(CancellationTokenSource source)
    {
        try
        {
            source.Cancel();
        }
        catch (AggregateException)
        {
            // A handler's own callback threw: that is the handler's business, not the canceller's.
        }
    }

    // Never disposed: without a timer or a wait handle a source holds nothing that needs it, and not disposing lets a
    // cancellation race with the end of the call safely.
    private sealed class Running : CancellationTokenSource
    {
        public Running? Next;
    }
}
