using JsonRpc.Framing;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    /// <summary>
    /// This connection is another node of the cluster, bridged in-process: the router routes to it like to any provider
    /// or subscriber (so answers, timeouts, disconnects and cancellation behave as for a local client), but prefers
    /// local providers to it and never forwards what came from one node to another.
    /// </summary>
    internal bool IsPeer { get; private set; }

    /// <summary>
    /// For a cluster node: the methods its clients provide exclusively, and the owner (identity) of each, as it last
    /// announced them. Under the registry lock.
    /// </summary>
    internal Dictionary<string, string>? PeerExclusive { get; set; }

    /// <summary>Whether this provider of <paramref name="route"/> holds it for <paramref name="owner"/>. Under the registry lock.</summary>
    internal bool ProvidesFor(RouteEntry route, string owner)
        => IsPeer ? PeerExclusive is { } exclusive && exclusive.TryGetValue(route.Name, out var held) && held == owner : OwnerKey == owner;

    /// <summary>Marks the connection as a cluster node and fixes its framing; before it runs.</summary>
    internal void BecomePeer(IJsonRpcFramer framer)
    {
        IsPeer = true;
        _framer = framer;
    }
}
