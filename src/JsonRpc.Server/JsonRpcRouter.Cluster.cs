using System.IO.Pipelines;
using System.Text;
using JsonRpc.Framing;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    /// <summary>The cluster this router is a node of (JsonRpc.Server.Cluster), or null on its own.</summary>
    internal IRouterCluster? Cluster { get; set; }

    // Under the registry lock, or anywhere: only signals.
    /// <summary>A connection's method descriptions changed while its registrations did not: announce it again.</summary>
    internal void DescriptionsChanged(RouterConnection connection) => ClusterRegistryChanged(connection);

    private void ClusterRegistryChanged(RouterConnection connection)
    {
        if (!connection.IsPeer)
        {
            Cluster?.OnLocalRegistryChanged();
        }
    }

    /// <summary>
    /// Serves another cluster node as a connection over <paramref name="transport"/> (Content-Length framed both ways)
    /// until the transport ends. <paramref name="started"/> receives the connection before it runs.
    /// </summary>
    internal Task RunPeerAsync(IDuplexPipe transport, string name, Action<RouterConnection> started)
        => RunConnectionAsync(transport, name, null, null, connection =>
        {
            connection.BecomePeer(new ContentLengthFramer(Options.MaxMessageSize));
            connection.SetName(name);
            started(connection);
        });

    /// <summary>Makes the routes a peer node serves exactly <paramref name="methods"/> and <paramref name="events"/>.</summary>
    internal void SetPeerRoutes(RouterConnection peer, IReadOnlySet<string> methods, IReadOnlySet<string> events,
        IReadOnlyDictionary<string, PeerMethodOwners>? owners = null)
    {
        lock (_registryLock)
        {
            peer.PeerOwners = owners;
            if (peer.IsClosing)
            {
                return; // its cleanup has run or will run: adding now would leave routes behind
            }

            Sync(peer, peer.Provided, methods, provider: true);
            Sync(peer, peer.Subscribed, events, provider: false);
            if (owners is not null)
            {
                SettleExclusiveClaims(peer, owners);
            }
        }

        void Sync(RouterConnection peer, List<RouteEntry> current, IReadOnlySet<string> wanted, bool provider)
        {
            for (var i = current.Count - 1; i >= 0; i--)
            {
                var route = current[i];
                if (!wanted.Contains(route.Name))
                {
                    _ = provider ? RemoveProvider(peer, route) : RemoveSubscriber(peer, route);
                    current.RemoveAt(i);
                }
            }

            foreach (var name in wanted)
            {
                var utf8 = Encoding.UTF8.GetBytes(name);
                if (IsReserved(utf8))
                {
                    continue;
                }

                _ = provider ? TryAddProvider(peer, utf8, null, peer.OwnerKey, out _) == AddProviderResult.Added : TryAddSubscriber(peer, utf8);
            }
        }
    }

    // Under the registry lock. Each node checks a new exclusive claim against what the others last announced, so two
    // nodes may accept rival claims of one name within the time their announcements take to cross. Both then settle it
    // alike, with nothing but the two owner keys: the lower one keeps the name everywhere. Here a local claim that loses
    // gives way: its providers stop providing the name (and are logged); a local claim that wins keeps it, and the
    // peer's rival providers go once the peer, applying the same rule, announces it no longer has them.
    private void SettleExclusiveClaims(RouterConnection peer, IReadOnlyDictionary<string, PeerMethodOwners> owners)
    {
        foreach (var (method, claim) in owners)
        {
            if (claim.Exclusive is not { } remote || !Routes.TryGetValue(Encoding.UTF8.GetBytes(method), out var route)
                || route.ExclusiveOwner is not { } local || string.CompareOrdinal(remote, local) >= 0)
            {
                continue;
            }

            foreach (var provider in route.Providers)
            {
                if (!provider.IsPeer && provider.OwnerKey != remote && RemoveProvider(provider, route))
                {
                    provider.Provided.Remove(route);
                    ClusterRegistryChanged(provider);
                    RouterLog.ExclusiveClaimLost(Logger, provider.ConnectionId, provider.Name, method, remote, peer.Name ?? "?", local);
                }
            }
        }
    }

    /// <summary>
    /// What this node's own clients hold: each registered client's name, owner (its identity, or the connection), methods,
    /// events, and the methods it provides exclusively.
    /// </summary>
    internal List<LocalClient> SnapshotLocalRegistry()
    {
        var clients = new List<LocalClient>();
        lock (_registryLock)
        {
            foreach (var (name, connection) in _clients)
            {
                var owner = connection.OwnerKey;
                var exclusive = connection.Provided.FindAll(r => r.ExclusiveOwner == owner).ConvertAll(static r => r.Name);
                clients.Add(new LocalClient(name, owner, Names(connection.Provided), Names(connection.Subscribed), [.. exclusive],
                    new Dictionary<string, byte[]>(connection.Descriptions, StringComparer.Ordinal)));
            }
        }

        return clients;

        static string[] Names(List<RouteEntry> routes)
        {
            var names = new string[routes.Count];
            for (var i = 0; i < names.Length; i++)
            {
                names[i] = routes[i].Name;
            }

            return names;
        }
    }

    /// <summary>
    /// Closes the local client registered as <paramref name="name"/> with a <see cref="RouterErrorCodes.NameTaken"/>
    /// error: another node held the name first.
    /// </summary>
    internal bool RevokeClientName(string name, string node)
    {
        RouterConnection? connection;
        lock (_registryLock)
        {
            if (!_clients.TryGetValue(name, out connection))
            {
                return false;
            }
        }

        CloseWithError(connection, CloseReason.NameConflict, RouterErrorCodes.NameTaken, "Name taken",
            $"Node '{node}' registered '{name}' first; names are unique across the cluster.");
        return true;
    }
}
