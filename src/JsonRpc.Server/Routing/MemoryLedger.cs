namespace JsonRpc.Server.Routing;

/// <summary>
/// What the router holds for one connection, in bytes of buffer: its outbound queue and the replies its batches are
/// gathering. One bound covers both (<see cref="JsonRpcRouterOptions.MaxOutboundBufferSize"/>), and every change is
/// also counted in the router's <see cref="MemoryBudget"/>. Closed with its connection: what it still counted leaves the
/// budget then, and nothing counts after.
/// </summary>
internal sealed class MemoryLedger(MemoryBudget budget)
{
    private readonly Lock _lock = new();
    private long _held;
    private bool _closed;

    public long Held => Volatile.Read(ref _held);

    public void Add(long bytes)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            _held += bytes;
        }

        budget.Add(bytes);
    }

    /// <summary>Counts <paramref name="bytes"/> more unless that would take the connection past <paramref name="limit"/>.</summary>
    public bool TryReserve(long bytes, long limit)
    {
        lock (_lock)
        {
            if (_closed || _held + bytes > limit)
            {
                return false;
            }

            _held += bytes;
        }

        budget.Add(bytes);
        return true;
    }

    public void Close()
    {
        long held;
        lock (_lock)
        {
            _closed = true;
            held = _held;
            _held = 0;
        }

        budget.Add(-held);
    }
}
