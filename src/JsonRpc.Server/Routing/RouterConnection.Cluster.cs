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

    /// <summary>For a peer node: who owns its providers of each method (for exclusive registrations). Under the registry lock.</summary>
    internal IReadOnlyDictionary<string, PeerMethodOwners>? PeerOwners { get; set; }

    /// <summary>Marks the connection as a cluster node and fixes its framing; before it runs.</summary>
    internal void BecomePeer(IJsonRpcFramer framer)
    {
        IsPeer = true;
        _framer = framer;
    }
}
