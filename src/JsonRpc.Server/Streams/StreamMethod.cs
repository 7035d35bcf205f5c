namespace JsonRpc.Server.Streams;

/// <summary>The protocol methods that streams and progress travel by, matched from UTF-8 without a string.</summary>
internal enum StreamMethod
{
    None,

    /// <summary><c>$/progress</c>: StreamJsonRpc's <c>IProgress&lt;T&gt;</c> and LSP's work-done and partial-result progress.</summary>
    Progress,

    /// <summary><c>notifications/progress</c>: MCP's progress.</summary>
    McpProgress,

    /// <summary><c>$/enumerator/next</c>: a consumer pulls the next values of a StreamJsonRpc async enumerable.</summary>
    EnumeratorNext,

    /// <summary><c>$/enumerator/abort</c>: a consumer stops early; the generator disposes its enumerator.</summary>
    EnumeratorAbort,
}

/// <summary>Matches <see cref="StreamMethod"/>s; a length and a first byte rule out every other method at once.</summary>
internal static class StreamMethods
{
    public static StreamMethod Match(ReadOnlySpan<byte> name) => name.Length switch
    {
        10 when name.SequenceEqual("$/progress"u8) => StreamMethod.Progress,
        17 when name.SequenceEqual("$/enumerator/next"u8) => StreamMethod.EnumeratorNext,
        18 when name.SequenceEqual("$/enumerator/abort"u8) => StreamMethod.EnumeratorAbort,
        22 when name.SequenceEqual("notifications/progress"u8) => StreamMethod.McpProgress,
        _ => StreamMethod.None,
    };
}
