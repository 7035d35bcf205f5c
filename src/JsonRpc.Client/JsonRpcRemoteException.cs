using JsonRpc.Protocol;

namespace JsonRpc.Client;

/// <summary>
/// The peer answered a call with a JSON-RPC error object. <see cref="Code"/>, <see cref="Exception.Message"/> and
/// <see cref="ErrorData"/> are exactly what it sent; the connection stays usable.
/// </summary>
public sealed class JsonRpcRemoteException : Exception
{
    /// <summary>Creates the exception from an error object's members.</summary>
    /// <param name="code">The error code (see <see cref="JsonRpcErrorCodes"/>).</param>
    /// <param name="message">The error message.</param>
    /// <param name="data">The error's <c>data</c> member, or absent.</param>
    /// <param name="method">The method that was called, when known.</param>
    public JsonRpcRemoteException(int code, string message, RawJson data = default, string? method = null)
        : base(message)
    {
        Code = code;
        ErrorData = data;
        Method = method;
    }

    /// <summary>The error code, e.g. <see cref="JsonRpcErrorCodes.MethodNotFound"/> or <see cref="JsonRpcErrorCodes.InvalidParams"/>.</summary>
    public int Code { get; }

    /// <summary>The error object's <c>data</c> member exactly as received (a private copy), or absent.</summary>
    public RawJson ErrorData { get; }

    /// <summary>The method whose call failed, when known.</summary>
    public string? Method { get; }

    /// <summary>The error object as the peer sent it.</summary>
    public JsonRpcErrorDetail ToErrorDetail() => new(Code, Message, ErrorData);

    /// <summary>The exception's type, message, error code, method (when known) and error data (when present), on one line.</summary>
    public override string ToString()
        => $"{GetType().FullName}: {Message} (code {Code}{(Method is null ? "" : ", method '" + Method + "'")}){(ErrorData.IsEmpty ? "" : " data: " + ErrorData)}";
}
