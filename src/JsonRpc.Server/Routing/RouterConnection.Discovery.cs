using System.Collections.Concurrent;
using System.Text.Json;
using JsonRpc.Protocol;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

// The OpenRPC descriptions this connection gave its methods when it registered them (rpc.discover).
internal sealed partial class RouterConnection
{
    /// <summary>The most a method's description may take; registrations with more are refused with -32602.</summary>
    internal const int MaxDescriptionBytes = 32 * 1024;

    private ConcurrentDictionary<string, byte[]>? _descriptions;

    /// <summary>Its methods' OpenRPC descriptions (Method Objects as sent), by method; empty when it gave none.</summary>
    internal IReadOnlyDictionary<string, byte[]> Descriptions
        => (IReadOnlyDictionary<string, byte[]>?)Volatile.Read(ref _descriptions) ?? EmptyDescriptions;

    private static readonly Dictionary<string, byte[]> EmptyDescriptions = [];

    /// <summary>The name of the permission-checked report a built-in method answers.</summary>
    private static ReadOnlySpan<byte> ReportName(BuiltInMethod method) => method switch
    {
        BuiltInMethod.ListMethods => "list_methods"u8,
        BuiltInMethod.Discover => "rpc.discover"u8,
        _ => "list_clients"u8,
    };

    /// <summary>Reads <c>register_method</c>'s optional <c>description</c> (by name, or third by position).</summary>
    private static bool TryGetDescription(ReadOnlySpan<byte> @params, out byte[]? description, out string? problem)
    {
        if (!ParamReader.TryGetObject(@params, RouterWire.DescriptionMemberUtf8, 2, MaxDescriptionBytes, out description, out problem) || description is null)
        {
            return problem is null;
        }

        problem = DescriptionProblem(description);
        return problem is null;
    }

    /// <summary>What is wrong with a Method Object's members that rpc.discover and the dashboard rely on, or null.</summary>
    private static string? DescriptionProblem(byte[] description)
    {
        using var document = JsonDocument.Parse(description);
        foreach (var member in document.RootElement.EnumerateObject())
        {
            var kind = member.Value.ValueKind;
            switch (member.Name)
            {
                case "summary" or "description" when kind != JsonValueKind.String:
                    return $"\"description.{member.Name}\" must be a string.";
                case "paramStructure" when member.Value.GetString() is not ("by-name" or "by-position" or "either"):
                    return "\"description.paramStructure\" must be \"by-name\", \"by-position\" or \"either\".";
                case "result" when kind != JsonValueKind.Object || !IsSchema(member.Value):
                    return "\"description.result\" must be a content descriptor: an object with a \"name\" and a \"schema\".";
                case "params" when kind != JsonValueKind.Array:
                    return "\"description.params\" must be an array of content descriptors.";
                case "params":
                    foreach (var param in member.Value.EnumerateArray())
                    {
                        if (param.ValueKind != JsonValueKind.Object || !IsSchema(param))
                        {
                            return "Each of \"description.params\" must be a content descriptor: an object with a \"name\" and a \"schema\".";
                        }
                    }

                    break;
            }
        }

        return null;

        static bool IsSchema(JsonElement descriptor)
            => descriptor.TryGetProperty("name"u8, out var name) && name.ValueKind == JsonValueKind.String
                && descriptor.TryGetProperty("schema"u8, out var schema) && schema.ValueKind is JsonValueKind.Object or JsonValueKind.True or JsonValueKind.False;
    }

    /// <summary>
    /// A method registered with another description than it had: when it was registered already the registry did not
    /// change, so the cluster is told here (the other nodes show the new description; announcements coalesce).
    /// </summary>
    private void DescriptionReplaced(byte[]? previous, byte[]? description)
    {
        if (previous is null ? description is not null : description is null || !previous.AsSpan().SequenceEqual(description))
        {
            _router.DescriptionsChanged(this);
        }
    }

    /// <summary>Sets (or, with null, removes) a method's description; returns the one it replaces.</summary>
    private byte[]? SetDescription(string method, byte[]? description)
    {
        if (description is null)
        {
            return _descriptions is { } existing && existing.TryRemove(method, out var removed) ? removed : null;
        }

        var descriptions = Volatile.Read(ref _descriptions)
            ?? Interlocked.CompareExchange(ref _descriptions, new ConcurrentDictionary<string, byte[]>(StringComparer.Ordinal), null)
            ?? _descriptions!;
        byte[]? previous = null;
        descriptions.AddOrUpdate(method, description, (_, old) =>
        {
            previous = old;
            return description;
        });
        return previous;
    }
}
