using System.Text.Json.Nodes;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

// Descriptions of the registered methods as OpenRPC Method Objects (https://spec.open-rpc.org), for rpc.discover.
public sealed partial class JsonRpcDispatcher
{
    /// <summary>
    /// Gives a registered method the summary and description its OpenRPC Method Object carries; null leaves one out.
    /// Returns false when no method of that name is registered.
    /// </summary>
    public bool Describe(string method, string? summary, string? description)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (_methods.Find(method) is not { } registered)
        {
            return false;
        }

        registered.Texts = (summary, description);
        return true;
    }

    /// <summary>
    /// The OpenRPC Method Object of a registered method, or null when there is none of that name: its name, summary and
    /// description (<see cref="Describe"/>), its params as content descriptors and its result, each with the JSON
    /// Schema that <see cref="System.Text.Json.Schema.JsonSchemaExporter"/> makes of the handler's
    /// <see cref="System.Text.Json.Serialization.Metadata.JsonTypeInfo"/> (so source-generated metadata describes itself,
    /// also trimmed and AOT). <c>paramStructure</c> is <c>either</c> for methods added with param names,
    /// <c>by-name</c> for a whole params object, <c>by-position</c> for a whole params array (one descriptor,
    /// marked <c>"x-whole-params": true</c>, stands for the whole array: OpenRPC has no variadic params); a method added with
    /// <see cref="AddNotification{TParams}"/> has no result; one added with <see cref="AddRaw"/> has no params and any result.
    /// </summary>
    public JsonObject? GetDescription(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return _methods.Find(method) is { } registered ? DescriptionOf(registered) : null;
    }

    /// <summary>The OpenRPC Method Objects of every registered method (see <see cref="GetDescription"/>), by name.</summary>
    public JsonArray GetDescriptions()
    {
        var methods = new JsonArray();
        foreach (var name in _methods.Names.Order(StringComparer.Ordinal))
        {
            if (_methods.Find(name) is { } registered)
            {
                methods.Add((JsonNode)DescriptionOf(registered));
            }
        }

        return methods;
    }

    private static JsonObject DescriptionOf(DispatchMethod method)
    {
        var (summary, description) = method.Texts;
        return method.Shape.Describe(method.Name, summary, description);
    }
}
