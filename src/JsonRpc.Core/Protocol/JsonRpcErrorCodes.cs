namespace JsonRpc.Protocol;

/// <summary>The error codes defined by the JSON-RPC 2.0 specification, section 5.1.</summary>
public static class JsonRpcErrorCodes
{
    /// <summary>Invalid JSON was received: the text is not JSON, is truncated, is not valid UTF-8, or nests too deeply.</summary>
    public const int ParseError = -32700;

    /// <summary>The JSON is not a valid Request (or Response) object.</summary>
    public const int InvalidRequest = -32600;

    /// <summary>The method does not exist or is not available.</summary>
    public const int MethodNotFound = -32601;

    /// <summary>Invalid method parameters.</summary>
    public const int InvalidParams = -32602;

    /// <summary>Internal JSON-RPC error.</summary>
    public const int InternalError = -32603;

    /// <summary>
    /// The request was cancelled (<c>$/cancelRequest</c>, see <see cref="JsonRpcProtocolMethods.CancelRequest"/>): the code
    /// LSP and StreamJsonRpc use. Outside the spec's pre-defined range, as it is an application outcome, not a protocol fault.
    /// </summary>
    public const int RequestCancelled = -32800;

    /// <summary>The lowest code of the range reserved for implementation-defined server errors.</summary>
    public const int ServerErrorRangeStart = -32099;

    /// <summary>The highest code of the range reserved for implementation-defined server errors.</summary>
    public const int ServerErrorRangeEnd = -32000;

    /// <summary>Whether <paramref name="code"/> lies in the implementation-defined server error range (-32099..-32000).</summary>
    public static bool IsServerError(int code) => code is >= ServerErrorRangeStart and <= ServerErrorRangeEnd;

    /// <summary>Whether <paramref name="code"/> lies in the range the specification reserves for pre-defined errors (-32768..-32000).</summary>
    public static bool IsReserved(int code) => code is >= -32768 and <= -32000;

    /// <summary>The message the specification gives for a pre-defined code, or <see langword="null"/>.</summary>
    public static string? GetStandardMessage(int code) => code switch
    {
        ParseError => "Parse error",
        InvalidRequest => "Invalid Request",
        MethodNotFound => "Method not found",
        InvalidParams => "Invalid params",
        InternalError => "Internal error",
        _ => null,
    };
}
