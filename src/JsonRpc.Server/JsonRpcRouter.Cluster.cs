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

    /// <summary>
    /// Makes the routes a peer node serves exactly <paramref name="methods"/> and <paramref name="events"/>, with the
    /// methods its clients provide exclusively (<paramref name="exclusive"/>, method to owner) held for their owners here
    /// too, so that another identity cannot register them on this node.
    /// </summary>
    internal void SetPeerRoutes(RouterConnection peer, IReadOnlySet<string> methods, IReadOnlySet<string> events,
        IReadOnlyDictionary<string, string>? exclusive = null)
    {
        lock (_registryLock)
        {
            if (peer.IsClosing)
            {
                return; // its cleanup has run or will run: adding now would leave routes behind
            }

            Sync(peer, peer.Provided, methods, provider: true);
            Sync(peer, peer.Subscribed, events, provider: false);

            var previous = peer.PeerExclusive;
            peer.PeerExclusive = exclusive is { Count: > 0 } ? new Dictionary<string, string>(exclusive, StringComparer.Ordinal) : null;
            foreach (var route in peer.Provided)
            {
                if (peer.PeerExclusive is { } now && now.TryGetValue(route.Name, out var owner))
                {
                    route.ExclusiveOwner ??= owner; // one held here already (a race between nodes) stays
                }
            }

            foreach (var (name, owner) in previous ?? [])
            {
                if (Routes.TryGetValue(Encoding.UTF8.GetBytes(name), out var route) && route.ExclusiveOwner == owner
                    && !Array.Exists(route.Providers, p => p.ProvidesFor(route, owner)))
                {
                    route.ExclusiveOwner = null; // no longer held exclusively there, nor by anyone here
                }
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

    /// <summary>The methods this node's own clients provide exclusively, each with its owner (identity).</summary>
    internal Dictionary<string, string> SnapshotLocalExclusive()
    {
        var exclusive = new Dictionary<string, string>(StringComparer.Ordinal);
        lock (_registryLock)
        {
            foreach (var connection in _clients.Values)
            {
                foreach (var route in connection.Provided)
                {
                    if (route.ExclusiveOwner is { } owner && connection.OwnerKey == owner)
                    {
                        exclusive[route.Name] = owner;
                    }
                }
            }
        }

        return exclusive;
    }

    /// <summary>What this node's own clients hold: each registered client's name, methods and events.</summary>
    internal List<(string Name, string[] Methods, string[] Events)> SnapshotLocalRegistry()
    {
        var clients = new List<(string, string[], string[])>();
        lock (_registryLock)
        {
            foreach (var (name, connection) in _clients)
            {
                clients.Add((name, Names(connection.Provided), Names(connection.Subscribed)));
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
