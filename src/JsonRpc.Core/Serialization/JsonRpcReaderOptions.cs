namespace JsonRpc.Serialization;

/// <summary>Options for reading JSON-RPC messages.</summary>
public sealed class JsonRpcReaderOptions
{
    /// <summary>The default maximum nesting depth: 64, as System.Text.Json.</summary>
    public const int DefaultMaxDepth = 64;

    private readonly int _maxDepth = DefaultMaxDepth;

    /// <summary>The default options.</summary>
    public static JsonRpcReaderOptions Default { get; } = new();

    /// <summary>
    /// The deepest nesting of objects and arrays accepted, the message object itself counting as 1. Deeper input is a
    /// Parse error. Default 64.
    /// </summary>
    public int MaxDepth
    {
        get => _maxDepth;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, 4096);
            _maxDepth = value;
        }
    }
}
