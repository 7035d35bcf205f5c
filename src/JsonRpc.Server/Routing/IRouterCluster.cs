using System.Text.Json;

namespace JsonRpc.Server.Routing;

/// <summary>
/// What the router asks of the cluster it belongs to (JsonRpc.Server.Cluster implements it). Every member is called on
/// the router's own threads, some under its registry lock: none may block.
/// </summary>
internal interface IRouterCluster
{
    /// <summary>A client of this node registered or released a name, a method or an event. Only signals.</summary>
    void OnLocalRegistryChanged();

    /// <summary>Why <paramref name="name"/> may not be registered on this node now, or null when it may.</summary>
    ClusterRefusal? CheckClientName(string name);

    /// <summary>
    /// Writes the <c>list_methods</c> members for one method: <c>"providers":[…]</c> (the local providers, then the
    /// other nodes') and <c>"nodes":[…]</c> beside it (each provider's node).
    /// </summary>
    void WriteProviders(Utf8JsonWriter writer, string method, RouterConnection[]? localProviders);

    /// <summary>This node's name.</summary>
    string NodeName { get; }

    /// <summary>Adds the other nodes' providers of <paramref name="method"/>, with their descriptions, to <paramref name="providers"/>.</summary>
    void CollectProviders(string method, List<ProviderDescription> providers);

    /// <summary>Writes the <c>"cluster":{…}</c> member of <c>get_server_stats</c>.</summary>
    void WriteStats(Utf8JsonWriter writer);
}
