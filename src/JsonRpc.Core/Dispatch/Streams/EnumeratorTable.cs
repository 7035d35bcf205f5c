namespace JsonRpc.Dispatch.Streams;

/// <summary>The async enumerables one connection's peer may pull, by token; bounded; all disposed when it closes.</summary>
internal sealed class EnumeratorTable
{
    private readonly Lock _lock = new();
    private readonly Dictionary<long, IServedEnumerator> _open = [];
    private bool _closed;

    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _open.Count;
            }
        }
    }

    /// <summary>Adds an enumerator; false when the connection is closed or already has <paramref name="max"/> open.</summary>
    public bool TryAdd(long token, IServedEnumerator enumerator, int max)
    {
        lock (_lock)
        {
            if (_closed || _open.Count >= max)
            {
                return false;
            }

            _open.Add(token, enumerator);
            return true;
        }
    }

    public IServedEnumerator? Find(long token)
    {
        lock (_lock)
        {
            return _open.GetValueOrDefault(token);
        }
    }

    /// <summary>Forgets the enumerator of that token and disposes it; false when there was none.</summary>
    public bool Remove(long token)
    {
        IServedEnumerator? removed;
        lock (_lock)
        {
            if (!_open.Remove(token, out removed))
            {
                return false;
            }
        }

        _ = removed.DisposeAsync().AsTask();
        return true;
    }

    /// <summary>The connection ended: every enumerator is disposed, and none is added from now on.</summary>
    public void Close()
    {
        IServedEnumerator[] all;
        lock (_lock)
        {
            _closed = true;
            all = [.. _open.Values];
            _open.Clear();
        }

        foreach (var enumerator in all)
        {
            _ = enumerator.DisposeAsync().AsTask();
        }
    }
}
