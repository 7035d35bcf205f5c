using System.Text.Json;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Cluster;

// What the router asks of the cluster.
public sealed partial class JsonRpcCluster : IRouterCluster
{
    void IRouterCluster.OnLocalRegistryChanged() => RequestAnnounce();

    /// <summary>The names of the clients registered on the other nodes, as this node knows them.</summary>
    internal HashSet<string> RemoteClientNames()
    {
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var link in _peers.Values)
        {
            foreach (var client in link.Clients)
            {
                names.Add(client.Name);
            }
        }

        return names;
    }

    // Checked against what this node knows of the others. Cut off from NATS, that is their registries as last heard
    // (kept while cut off), so a node serving alone still grants names nobody held; a name granted on two sides of a
    // cut is settled when NATS is back: the earlier claim keeps it (see ApplyState).
    ClusterRefusal? IRouterCluster.CheckClientName(string name)
    {
        foreach (var link in _peers.Values)
        {
            foreach (var client in link.Clients)
            {
                if (client.Name == name)
                {
                    return new ClusterRefusal(RouterErrorCodes.NameTaken, "Name taken",
                        $"Another client is registered as '{name}' on node '{link.Node}'.");
                }
            }
        }

        return null;
    }

    void IRouterCluster.WriteProviders(Utf8JsonWriter writer, string method, RouterConnection[]? localProviders)
    {
        var providers = new List<(string Name, string Node)>();
        foreach (var provider in localProviders ?? [])
        {
            if (!provider.IsPeer && provider.Name is { } name)
            {
                providers.Add((name, NodeName));
            }
        }

        if (localProviders is not null)
        {
            foreach (var link in _peers.Values)
            {
                foreach (var client in link.Clients)
                {
                    if (Array.IndexOf(client.Methods, method) >= 0)
                    {
                        providers.Add((client.Name, link.Node));
                    }
                }
            }
        }

        writer.WriteStartArray("providers"u8);
        foreach (var (name, _) in providers)
        {
            writer.WriteStringValue(name);
        }

        writer.WriteEndArray();
        writer.WriteStartArray("nodes"u8);
        foreach (var (_, node) in providers)
        {
            writer.WriteStringValue(node);
        }

        writer.WriteEndArray();
    }

    void IRouterCluster.CollectProviders(string method, List<ProviderDescription> providers)
    {
        foreach (var link in _peers.Values)
        {
            foreach (var client in link.Clients)
            {
                if (Array.IndexOf(client.Methods, method) >= 0)
                {
                    providers.Add(new ProviderDescription(client.Name, link.Node, client.Descriptions.GetValueOrDefault(method)));
                }
            }
        }
    }

    void IRouterCluster.WriteStats(Utf8JsonWriter writer)
    {
        writer.WriteStartObject("cluster"u8);
        writer.WriteString("node"u8, NodeName);
        writer.WriteBoolean("connected"u8, IsConnected);
        writer.WriteStartArray("nodes"u8);
        writer.WriteStartObject();
        writer.WriteString("node"u8, NodeName);
        writer.WritePropertyName("stats"u8);
        WriteOwnStats(writer);
        writer.WriteEndObject();
        foreach (var link in _peers.Values)
        {
            writer.WriteStartObject();
            writer.WriteString("node"u8, link.Node);
            writer.WriteNumber("last_seen_ms"u8, Environment.TickCount64 - link.LastSeen);
            if (link.Stats is { } stats)
            {
                writer.WritePropertyName("stats"u8);
                writer.WriteRawValue(stats, skipInputValidation: true);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>This node's own figures, without the links to other nodes: what its heartbeat carries.</summary>
    private void WriteOwnStats(Utf8JsonWriter writer)
    {
        var s = _router.GetStats();
        var clients = _router.SnapshotLocalRegistry();
        long providers = 0, subscriptions = 0;
        foreach (var client in clients)
        {
            providers += client.Methods.Length;
            subscriptions += client.Events.Length;
        }

        writer.WriteStartObject();
        writer.WriteNumber("connections"u8, s.Connections - _peers.Count);
        writer.WriteNumber("registered_clients"u8, clients.Count);
        writer.WriteNumber("providers"u8, providers);
        writer.WriteNumber("subscriptions"u8, subscriptions);
        writer.WriteNumber("pending_calls"u8, s.PendingCalls);
        writer.WriteNumber("calls_routed"u8, s.CallsRouted);
        writer.WriteNumber("events_published"u8, s.EventsPublished);
        writer.WriteNumber("uptime_ms"u8, (long)s.Uptime.TotalMilliseconds);
        writer.WriteEndObject();
    }
}
