using System.Text;

namespace JsonRpc.Server.Routing;

/// <summary>
/// Everything routed under one name: the clients that provide it as a method and the clients subscribed to it as an
/// event. The arrays are replaced, never changed, under the router's registry lock, so routing reads them without one.
/// </summary>
internal sealed class RouteEntry(byte[] nameUtf8)
{
    private RouterConnection[] _providers = [];
    private RouterConnection[] _subscribers = [];
    private int _rotation;

    // Added to a cluster node's load so that any local provider that is not closing comes first.
    private const long PeerLoad = 1L << 40;

    public byte[] NameUtf8 { get; } = nameUtf8;

    public string Name { get; } = Encoding.UTF8.GetString(nameUtf8);

    public RouterConnection[] Providers => Volatile.Read(ref _providers);

    public RouterConnection[] Subscribers => Volatile.Read(ref _subscribers);

    public bool IsEmpty => Providers.Length == 0 && Subscribers.Length == 0;

    /// <summary>The owner (identity) that provides this method exclusively, or null. Under the registry lock.</summary>
    public string? ExclusiveOwner { get; set; }

    /// <summary>
    /// The provider with the fewest calls waiting on it; among equals, the next in turn, so that notifications and an
    /// idle pool spread evenly too. A provider that is closing is taken only if there is no other. A local provider is
    /// always preferred to another cluster node; with <paramref name="localOnly"/> (a call that came from another node)
    /// no node is picked at all, so that calls never travel on between nodes.
    /// </summary>
    public RouterConnection? PickProvider(bool localOnly = false)
    {
        var picked = Pick();
        return localOnly && picked is { IsPeer: true } ? null : picked;
    }

    private RouterConnection? Pick()
    {
        var providers = Providers;
        switch (providers.Length)
        {
            case 0:
                return null;
            case 1:
                return providers[0];
        }

        var start = (int)((uint)Interlocked.Increment(ref _rotation) % (uint)providers.Length);
        var best = providers[start];
        var bestLoad = Load(best);
        for (var i = 1; i < providers.Length && bestLoad > 0; i++)
        {
            var candidate = providers[(start + i) % providers.Length];
            var load = Load(candidate);
            if (load < bestLoad)
            {
                best = candidate;
                bestLoad = load;
            }
        }

        return best;

        static long Load(RouterConnection provider) => provider.IsClosing ? long.MaxValue
            : provider.IsPeer ? PeerLoad + provider.OutstandingAsProvider
            : provider.OutstandingAsProvider;
    }

    // The mutators run under the router's registry lock.
    public bool AddProvider(RouterConnection connection) => Add(ref _providers, connection);

    public bool RemoveProvider(RouterConnection connection) => Remove(ref _providers, connection);

    public bool AddSubscriber(RouterConnection connection) => Add(ref _subscribers, connection);

    public bool RemoveSubscriber(RouterConnection connection) => Remove(ref _subscribers, connection);

    private static bool Add(ref RouterConnection[] array, RouterConnection connection)
    {
        if (Array.IndexOf(array, connection) >= 0)
        {
            return false;
        }

        var next = new RouterConnection[array.Length + 1];
        array.CopyTo(next, 0);
        next[^1] = connection;
        Volatile.Write(ref array, next);
        return true;
    }

    private static bool Remove(ref RouterConnection[] array, RouterConnection connection)
    {
        var index = Array.IndexOf(array, connection);
        if (index < 0)
        {
            return false;
        }

        var next = new RouterConnection[array.Length - 1];
        Array.Copy(array, 0, next, 0, index);
        Array.Copy(array, index + 1, next, index, array.Length - index - 1);
        Volatile.Write(ref array, next);
        return true;
    }
}
