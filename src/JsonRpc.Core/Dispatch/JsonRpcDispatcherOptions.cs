using System.Text.Json;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

/// <summary>Options for <see cref="JsonRpcDispatcher"/>.</summary>
public sealed class JsonRpcDispatcherOptions
{
    /// <summary>
    /// Options for the reflection-based <c>Add</c> overloads that take no <see cref="System.Text.Json.Serialization.Metadata.JsonTypeInfo"/>.
    /// Default: <see cref="JsonSerializerDefaults.Web"/> (camelCase names, case-insensitive binding).
    /// </summary>
    public JsonSerializerOptions SerializerOptions { get; init; } = new(JsonSerializerDefaults.Web);

    /// <summary>
    /// When true (the default), a handler's unexpected exception answers with its message as <c>error.message</c>;
    /// when false, with the spec's "Internal error" only. The exception type and stack never leave the process.
    /// </summary>
    public bool IncludeExceptionMessages { get; init; } = true;

    /// <summary>The deepest nesting accepted in incoming messages. Default 64.</summary>
    public int MaxDepth { get; init; } = JsonRpcReaderOptions.DefaultMaxDepth;
}
