using System.Reflection;
using System.Text.Json;
using JsonRpc.Protocol;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

// rpc.discover: the OpenRPC document of every method reachable through the router.
public sealed partial class JsonRpcRouter
{
    private static readonly string DocumentVersion =
        typeof(JsonRpcRouter).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "0.0.0";

    /// <summary>
    /// Writes the OpenRPC document (<see cref="OpenRpc.Version"/>): the router's own methods, the host's
    /// (<see cref="Methods"/>, described from their handlers), and every method a client provides on any cluster node,
    /// shown with the first description among its providers (this node's first) and, in <c>x-providers</c>, every
    /// provider with its node and its own description where it differs. <paramref name="viewer"/> sees only what it may call.
    /// </summary>
    internal void WriteOpenRpcDocument(Utf8JsonWriter writer, Security.RouterPrincipal? viewer)
    {
        writer.WriteStartObject();
        writer.WriteString("openrpc"u8, OpenRpc.Version);
        writer.WriteStartObject("info"u8);
        writer.WriteString("title"u8, Cluster is { } node ? $"JSON-RPC router {node.NodeName}" : "JSON-RPC router");
        writer.WriteString("version"u8, DocumentVersion);
        writer.WriteString("description"u8, "Every method reachable through this router: its own, its host's, and those its clients provide (on every cluster node).");
        writer.WriteEndObject();

        var methods = new SortedDictionary<string, Action<Utf8JsonWriter>>(StringComparer.Ordinal);
        foreach (var method in BuiltInDescriptions.Methods)
        {
            methods[method.Name] = method.Write;
        }

        foreach (var name in Methods.Methods)
        {
            if ((viewer is null || viewer.Call.IsAllowed(name, out _)) && Methods.GetDescription(name) is { } description)
            {
                methods[name] = w => description.WriteTo(w);
            }
        }

        var routes = new List<RouteEntry>();
        Routes.CopyValuesTo(routes);
        foreach (var route in routes)
        {
            var providers = route.Providers;
            if (providers.Length > 0 && (viewer is null || viewer.Call.IsAllowed(route.NameUtf8, out _)) && !methods.ContainsKey(route.Name))
            {
                var described = DescribeProviders(route.Name, providers);
                if (described.Count > 0)
                {
                    methods[route.Name] = w => WriteRoutedMethod(w, route.Name, described);
                }
            }
        }

        writer.WriteStartArray("methods"u8);
        foreach (var write in methods.Values)
        {
            write(writer);
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private List<ProviderDescription> DescribeProviders(string method, RouterConnection[] providers)
    {
        var described = new List<ProviderDescription>(providers.Length);
        var peers = false;
        var node = Cluster?.NodeName;
        foreach (var provider in providers)
        {
            if (provider.IsPeer)
            {
                peers = true;
            }
            else if (provider.Name is { } name)
            {
                described.Add(new ProviderDescription(name, node, provider.Descriptions.GetValueOrDefault(method)));
            }
        }

        if (peers)
        {
            Cluster?.CollectProviders(method, described);
        }

        return described;
    }

    private static void WriteRoutedMethod(Utf8JsonWriter writer, string name, List<ProviderDescription> providers)
    {
        var shown = providers.Find(static p => p.Description is not null).Description;
        writer.WriteStartObject();
        writer.WriteString("name"u8, name);
        var hasParams = false;
        if (shown is not null)
        {
            using var document = JsonDocument.Parse(shown);
            foreach (var property in document.RootElement.EnumerateObject())
            {
                if (property.NameEquals("name"u8) || property.NameEquals("x-providers"u8))
                {
                    continue;
                }

                hasParams |= property.NameEquals("params"u8);
                property.WriteTo(writer);
            }
        }

        if (!hasParams)
        {
            writer.WriteStartArray("params"u8); // required by OpenRPC; nothing is known of them
            writer.WriteEndArray();
        }

        writer.WriteStartArray("x-providers"u8);
        foreach (var provider in providers)
        {
            writer.WriteStartObject();
            writer.WriteString("client"u8, provider.Client);
            if (provider.Node is { } node)
            {
                writer.WriteString("node"u8, node);
            }

            if (provider.Description is { } own && (shown is null || !own.AsSpan().SequenceEqual(shown)))
            {
                writer.WritePropertyName("description"u8);
                writer.WriteRawValue(own, skipInputValidation: true);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
