using System.Runtime.CompilerServices;

namespace JsonRpc.Serialization;

/// <summary>Options for reading JSON-RPC messages.</summary>
public sealed class JsonRpcReaderOptions
{
    /// <summary>The default maximum nesting depth: 64, as System.Text.Json.</summary>
    public const int DefaultMaxDepth = 64;

    /// <summary>The deepest nesting that may be configured: 4096.</summary>
    public const int MaxDepthLimit = 4096;

    private readonly int _maxDepth = DefaultMaxDepth;

    /// <summary>The default options.</summary>
    public static JsonRpcReaderOptions Default { get; } = new();

    /// <summary>
    /// The deepest nesting of objects and arrays accepted, the message object itself counting as 1 (1 to
    /// <see cref="MaxDepthLimit"/>). Deeper input is a Parse error. Default 64.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is out of range.</exception>
    public int MaxDepth
    {
        get => _maxDepth;
        init
        {
            ThrowIfInvalidMaxDepth(value, nameof(MaxDepth));
            _maxDepth = value;
        }
    }

    internal static void ThrowIfInvalidMaxDepth(int maxDepth, [CallerArgumentExpression(nameof(maxDepth))] string? paramName = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxDepth, 1, paramName);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxDepth, MaxDepthLimit, paramName);
    }
}
