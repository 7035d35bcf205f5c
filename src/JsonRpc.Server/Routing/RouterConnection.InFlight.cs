namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // Calls routed to this connection as a provider, by router id, and linked in the order they were sent, which is
    // also deadline order: the timer pops expired calls from the head. Whoever removes an entry completes it.
    private readonly Dictionary<long, RoutedCall> _inFlight = [];
    private RoutedCall? _oldest;
    private RoutedCall? _newest;
    private readonly Lock _inFlightLock = new();
    private bool _inFlightClosed;
    private int _outstanding;

    /// <summary>Calls routed to this connection and not yet answered: the load used to pick a provider.</summary>
    public int OutstandingAsProvider => Volatile.Read(ref _outstanding);

    public bool TryAddInFlight(RoutedCall call)
    {
        lock (_inFlightLock)
        {
            if (_inFlightClosed)
            {
                return false;
            }

            _inFlight.Add(call.RouterId, call);
            if (call.HasProgress && _progressRoutes is { Count: > 0 })
            {
                ProgressCallAdded(call);
            }

            call.Previous = _newest;
            if (_newest is null)
            {
                _oldest = call;
            }
            else
            {
                _newest.Next = call;
            }

            _newest = call;
            _outstanding = _inFlight.Count;
            return true;
        }
    }

    public bool TryRemoveInFlight(long routerId, out RoutedCall call)
    {
        lock (_inFlightLock)
        {
            if (!_inFlight.Remove(routerId, out call!))
            {
                return false;
            }

            Unlink(call);
            _outstanding = _inFlight.Count;
            return true;
        }
    }

    /// <summary>Removes the calls whose deadline has passed, oldest first, into <paramref name="expired"/>.</summary>
    public void TakeExpired(long now, List<RoutedCall> expired)
    {
        if (Volatile.Read(ref _outstanding) == 0)
        {
            return;
        }

        lock (_inFlightLock)
        {
            while (_oldest is { } call && call.Deadline <= now)
            {
                _inFlight.Remove(call.RouterId);
                Unlink(call);
                expired.Add(call);
            }

            _outstanding = _inFlight.Count;
        }
    }

    // Under the in-flight lock.
    private void Unlink(RoutedCall call)
    {
        if (call.ProgressRouted)
        {
            ProgressCallRemoved(call);
        }

        if (call.Previous is null)
        {
            _oldest = call.Next;
        }
        else
        {
            call.Previous.Next = call.Next;
        }

        if (call.Next is null)
        {
            _newest = call.Previous;
        }
        else
        {
            call.Next.Previous = call.Previous;
        }

        call.Previous = call.Next = null;
    }

    /// <summary>
    /// Fails every call waiting on this connection, now. When it is closing (<paramref name="close"/>) the table takes
    /// no more calls; at shutdown it stays open for the replies already on their way out.
    /// </summary>
    public void FailInFlight(bool close, bool shuttingDown)
    {
        RoutedCall[] calls;
        lock (_inFlightLock)
        {
            _inFlightClosed |= close;
            _progressRoutes?.Clear();
            if (_inFlight.Count == 0)
            {
                return;
            }

            calls = [.. _inFlight.Values];
            _inFlight.Clear();
            _oldest = _newest = null;
            _outstanding = 0;
        }

        foreach (var call in calls)
        {
            if (shuttingDown)
            {
                _router.FailCall(call, RouterErrorCodes.ShuttingDown, "Server shutting down");
            }
            else
            {
                _router.FailCall(call, RouterErrorCodes.ProviderDisconnected, "Provider disconnected",
                    $"'{Name}' disconnected before answering.");
            }
        }
    }
}
