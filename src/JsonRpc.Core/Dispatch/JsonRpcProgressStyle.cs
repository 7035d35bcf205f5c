namespace JsonRpc.Dispatch;

/// <summary>How progress reports for a caller's token are sent to it.</summary>
public enum JsonRpcProgressStyle
{
    /// <summary><c>$/progress</c> with <c>[token, value]</c>: StreamJsonRpc's <see cref="IProgress{T}"/> arguments.</summary>
    Positional,

    /// <summary><c>$/progress</c> with <c>{"token": …, "value": …}</c>: LSP's <c>workDoneToken</c> and <c>partialResultToken</c>.</summary>
    Named,

    /// <summary>
    /// <c>notifications/progress</c> with <c>{"progressToken": …, …}</c>: MCP's <c>_meta.progressToken</c>. A value that
    /// is a JSON object gives the other members (<c>progress</c>, <c>total</c>, <c>message</c>); any other value is
    /// sent as <c>progress</c>.
    /// </summary>
    Mcp,
}
