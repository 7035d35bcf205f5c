using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Why <see cref="JsonRpcMessageReader.TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/> refused a message, without an exception.</summary>
public readonly struct JsonRpcReadError
{
    internal JsonRpcReadError(int code, string detail)
    {
        Code = code;
        Detail = detail;
    }

    /// <summary><see cref="JsonRpcErrorCodes.ParseError"/> or <see cref="JsonRpcErrorCodes.InvalidRequest"/>.</summary>
    public int Code { get; }

    /// <summary>The spec's message for <see cref="Code"/>.</summary>
    public string Message => JsonRpcErrorCodes.GetStandardMessage(Code) ?? "Error";

    /// <summary>What exactly is wrong.</summary>
    public string Detail { get; }

    /// <summary>The error as an exception, with the id when it could be read.</summary>
    public JsonRpcProtocolException ToException(RequestId id = default) => new(Code, Detail, id);
}
