namespace JsonRpc.Benchmarks.Messages;

/// <summary>How big the params, result or error data of a sample message are.</summary>
public enum PayloadSize
{
    /// <summary>The JSON-RPC 2.0 spec's own examples: <c>"params":[42,23]</c>, <c>"result":19</c>.</summary>
    Small,

    /// <summary>About 1 KB of params, result or error data: an object with nested arrays, strings and numbers.</summary>
    OneKB,
}
