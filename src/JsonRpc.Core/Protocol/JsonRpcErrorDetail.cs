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

    /// <summary>An error object with one of the spec's codes and the spec's message for it.</summary>
    public static JsonRpcErrorDetail FromCode(int code, RawJson data = default)
        => new(code, JsonRpcErrorCodes.GetStandardMessage(code) ?? "Server error", data);
}
