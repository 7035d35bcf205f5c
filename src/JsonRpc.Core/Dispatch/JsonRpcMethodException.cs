using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

/// <summary>
/// Thrown by a method handler to answer with a specific JSON-RPC error (code, message and optional data) instead of
/// the generic Internal error.
/// </summary>
public class JsonRpcMethodException : Exception
{
    /// <summary>Creates the exception.</summary>
    public JsonRpcMethodException(int code, string message, RawJson data = default, Exception? innerException = null)
        : base(message, innerException)
    {
        Code = code;
        ErrorData = data;
    }

    /// <summary>The error code to answer with.</summary>
    public int Code { get; }

    /// <summary>The <c>error.data</c> to answer with, or absent.</summary>
    public RawJson ErrorData { get; }
}
