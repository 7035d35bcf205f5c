namespace JsonRpc.Protocol;

/// <summary>The <c>error</c> object of a failed answer: an integer code, a message and optional data.</summary>
public sealed class JsonRpcErrorDetail
{
    /// <summary>Creates an error object.</summary>
    public JsonRpcErrorDetail(int code, string message, RawJson data = default)
    {
        ArgumentNullException.ThrowIfNull(message);
        Code = code;
        Message = message;
        Data = data;
    }

    /// <summary>The error code; see <see cref="JsonRpcErrorCodes"/>.</summary>
    public int Code { get; }

    /// <summary>A short description of the error.</summary>
    public string Message { get; }

    /// <summary>Additional information, exactly as received, or absent.</summary>
    public RawJson Data { get; }

    /// <summary>
    /// An error object with the spec's message for <paramref name="code"/>: "Parse error", "Invalid Request", …;
    /// "Server error" for the implementation-defined range -32099..-32000; "Error" for any other code.
    /// </summary>
    public static JsonRpcErrorDetail FromCode(int code, RawJson data = default)
        => new(code, JsonRpcErrorCodes.GetStandardMessage(code) ?? (JsonRpcErrorCodes.IsServerError(code) ? "Server error" : "Error"), data);
}
