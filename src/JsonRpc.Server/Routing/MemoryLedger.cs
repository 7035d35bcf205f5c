namespace JsonRpc.Server.Routing;

/// <summary>
/// What the router holds for one connection, in bytes of buffer: its outbound queue (which counts itself, and the
/// router's <see cref="MemoryBudget"/>, as messages come and go) and the replies its batches are gathering, counted
/// here. One bound covers both (<see cref="JsonRpcRouterOptions.MaxOutboundBufferSize"/>). Closed with its connection:
/// what the batches still counted leaves the budget then, and nothing counts after.
/// The streams the connection consumes (<see cref="TryReserveStream"/>) count against the same bound and budget, but
/// not in <see cref="Held"/>: that is what drains as the client reads, which back-pressure waits on; a stream's
/// bookkeeping drains only as the client pulls or aborts, which it could not do while its reading waits.
/// </summary>
internal sealed class MemoryLedger(MemoryBudget budget, OutboundQueue outbound)
{
    private readonly Lock _lock = new();
    private long _batches;
    private long _streams;
    private bool _closed;

    public long Held => outbound.QueuedBytes + Volatile.Read(ref _batches);

    /// <summary>Counts (or, negative, releases) bytes of batch replies.</summary>
    public void Add(long bytes)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            _batches += bytes;
        }

        budget.Add(bytes);
    }

    /// <summary>Counts <paramref name="bytes"/> of a stream unless that would take the connection past <paramref name="limit"/>.</summary>
    public bool TryReserveStream(long bytes, long limit)
    {
        lock (_lock)
        {
            if (_closed || outbound.QueuedBytes + _batches + _streams + bytes > limit)
            {
                return false;
            }

            _streams += bytes;
        }

        budget.Add(bytes);
        return true;
    }

    /// <summary>Releases a stream's bytes.</summary>
    public void ReleaseStream(long bytes)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            _streams -= bytes;
        }

        budget.Add(-bytes);
    }

    /// <summary>Counts <paramref name="bytes"/> more of batch replies unless that would take the connection past <paramref name="limit"/>.</summary>
    public bool TryReserve(long bytes, long limit)
    {
        lock (_lock)
        {
            if (_closed || outbound.QueuedBytes + _batches + _streams + bytes > limit)
            {
                return false;
            }

            _batches += bytes;
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
            held = _batches + _streams;
            _batches = 0;
            _streams = 0;
        }

        budget.Add(-held);
    }
}
