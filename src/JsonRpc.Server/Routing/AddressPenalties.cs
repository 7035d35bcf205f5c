namespace JsonRpc.Server.Routing;

/// <summary>
/// Remembers, per client address, connections the router closed for misbehaviour (an oversized message, framing it
/// cannot read, not reading what it is sent, a wrong token), and makes new connections from that address wait before
/// their first byte is read: 50 ms after the first such close, doubling with each one, up to the configured maximum;
/// an address is forgotten 30 s after its last close. A client that is dropped and connects again at once (an
/// oversized message every few milliseconds, 4 MiB read and refused each time) is slowed to one attempt per maximum
/// delay, while clients already connected from the same address go on untouched. Bounded: at most
/// <see cref="MaxAddresses"/> addresses are remembered; past that, new ones are not (the router stays bounded first).
/// </summary>
internal sealed class AddressPenalties
{
    internal const int MaxAddresses = 4096;
    private const int FirstDelayMs = 50;
    private const long ForgetAfterMs = 30_000;

    private readonly Lock _lock = new();
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly int _maxDelayMs;

    public AddressPenalties(TimeSpan maxDelay) => _maxDelayMs = (int)Math.Clamp(maxDelay.TotalMilliseconds, 0, int.MaxValue);

    /// <summary>Counts one close for misbehaviour against the address of <paramref name="remoteEndPoint"/>.</summary>
    public void Strike(string? remoteEndPoint, long now)
    {
        if (_maxDelayMs == 0 || AddressOf(remoteEndPoint) is not { } address)
        {
            return;
        }

        lock (_lock)
        {
            if (_entries.TryGetValue(address, out var entry) && now - entry.LastStrike < ForgetAfterMs)
            {
                _entries[address] = new Entry(Math.Min(entry.Strikes + 1, 30), now);
                return;
            }

            if (_entries.Count >= MaxAddresses)
            {
                Forget(now);
                if (_entries.Count >= MaxAddresses)
                {
                    return;
                }
            }

            _entries[address] = new Entry(1, now);
        }
    }

    /// <summary>How long a new connection from <paramref name="remoteEndPoint"/> waits before it is read: zero for an address in good standing.</summary>
    public TimeSpan DelayFor(string? remoteEndPoint, long now)
    {
        if (_maxDelayMs == 0 || AddressOf(remoteEndPoint) is not { } address)
        {
            return TimeSpan.Zero;
        }

        lock (_lock)
        {
            if (!_entries.TryGetValue(address, out var entry))
            {
                return TimeSpan.Zero;
            }

            if (now - entry.LastStrike >= ForgetAfterMs)
            {
                _entries.Remove(address);
                return TimeSpan.Zero;
            }

            var delay = (long)FirstDelayMs << Math.Min(entry.Strikes - 1, 20);
            return TimeSpan.FromMilliseconds(Math.Min(delay, _maxDelayMs));
        }
    }

    /// <summary>The addresses remembered now (for tests and stats).</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _entries.Count;
            }
        }
    }

    private void Forget(long now)
    {
        foreach (var (address, entry) in _entries)
        {
            if (now - entry.LastStrike >= ForgetAfterMs)
            {
                _entries.Remove(address);
            }
        }
    }

    /// <summary>
    /// The host part of an endpoint as Kestrel and ASP.NET Core print it: <c>10.0.0.7:5123</c> gives <c>10.0.0.7</c>,
    /// <c>[::1]:5123</c> gives <c>::1</c>; anything else (a Unix socket's path, an address without a port) is taken
    /// whole. Null for a connection without an address (in-process pipes, cluster links): those are never delayed.
    /// </summary>
    internal static string? AddressOf(string? remoteEndPoint)
    {
        if (string.IsNullOrEmpty(remoteEndPoint))
        {
            return null;
        }

        if (remoteEndPoint[0] == '[')
        {
            var close = remoteEndPoint.IndexOf(']', StringComparison.Ordinal);
            return close > 1 ? remoteEndPoint[1..close] : remoteEndPoint;
        }

        var colon = remoteEndPoint.IndexOf(':', StringComparison.Ordinal);
        return colon > 0 && colon == remoteEndPoint.LastIndexOf(':') ? remoteEndPoint[..colon] : remoteEndPoint;
    }

    private readonly record struct Entry(int Strikes, long LastStrike);
}
