namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // Calls routed to this connection as a provider, by router id. Whoever removes an entry completes it.
    private readonly Dictionary<long, PendingCall> _inFlight = [];
    private readonly Lock _inFlightLock = new();
    private bool _inFlightClosed;
    private int _outstanding;

    /// <summary>Calls routed to this connection and not yet answered: the load used to pick a provider.</summary>
    public int OutstandingAsProvider => Volatile.Read(ref _outstanding);

    /// <summary>Calls this connection made that wait for an answer.</summary>
    public int PendingAsCaller => Volatile.Read(ref _pendingAsCaller);

    /// <summary>Called when a call this connection made is done, whichever way.</summary>
    internal void CallFinished() => Interlocked.Decrement(ref _pendingAsCaller);

    public bool TryAddInFlight(PendingCall call)
    {
        lock (_inFlightLock)
        {
            if (_inFlightClosed)
            {
                return false;
            }

            _inFlight.Add(call.RouterId, call);
            _outstanding = _inFlight.Count;
            return true;
        }
    }

    public bool TryRemoveInFlight(long routerId, out PendingCall call)
    {
        lock (_inFlightLock)
        {
            if (!_inFlight.Remove(routerId, out call!))
            {
                return false;
            }

            _outstanding = _inFlight.Count;
            return true;
        }
    }

    /// <summary>
    /// Fails every call waiting on this connection, now. When it is closing (<paramref name="close"/>) the table takes
    /// no more calls; at shutdown it stays open for the replies already on their way out.
    /// </summary>
    public void FailInFlight(bool close, bool shuttingDown)
    {
        PendingCall[] calls;
        lock (_inFlightLock)
        {
            _inFlightClosed |= close;
            if (_inFlight.Count == 0)
            {
                return;
            }

            calls = [.. _inFlight.Values];
            _inFlight.Clear();
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
