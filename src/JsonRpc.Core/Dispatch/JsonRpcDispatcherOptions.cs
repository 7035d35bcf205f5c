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

    /// <summary>
    /// How many values of an async enumerable (<see cref="JsonRpcDispatcher.AddStream{TParams, T}"/>) go with the answer
    /// that carries it, as StreamJsonRpc's <c>WithPrefetchAsync</c> does: the call is answered once that many are ready
    /// (or the sequence ended). Default 0: the answer carries the token only, and every value is pulled.
    /// </summary>
    public int EnumeratorPrefetch { get; init; }

    /// <summary>
    /// The fewest values an answer to <c>$/enumerator/next</c> waits for (fewer only at the end of the sequence); more
    /// that are ready at once go with them, up to <see cref="EnumeratorMaxBatch"/>. Default 1.
    /// </summary>
    public int EnumeratorMinBatch { get; init; } = 1;

    /// <summary>The most values an answer to <c>$/enumerator/next</c> carries. Default 64.</summary>
    public int EnumeratorMaxBatch { get; init; } = 64;

    /// <summary>
    /// The most async enumerables one connection may have open (served and neither finished nor aborted); a call that
    /// would open another is answered <see cref="JsonRpcDispatcher.Overloaded"/>. Default 16.
    /// </summary>
    public int MaxOpenEnumerators { get; init; } = 16;

    /// <summary>
    /// For <see cref="JsonRpcDispatcher.ServeAsync"/>: the most messages of one connection dispatched at once; a call
    /// beyond it is answered <see cref="JsonRpcDispatcher.Overloaded"/>. Default 64.
    /// </summary>
    public int MaxConcurrentCalls { get; init; } = 64;

    /// <summary>
    /// For <see cref="JsonRpcDispatcher.ServeAsync"/>: the bytes waiting to be written to one connection past which
    /// progress notifications are dropped (answers are bounded by <see cref="MaxConcurrentCalls"/>). Default 1 MiB.
    /// </summary>
    public long MaxOutboundBytes { get; init; } = 1024 * 1024;
}
