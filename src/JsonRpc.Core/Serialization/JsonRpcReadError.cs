using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Why <see cref="JsonRpcMessageReader.TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/> refused a message, without an exception.</summary>
public readonly struct JsonRpcReadError
{
    private readonly string? _detail;

    internal JsonRpcReadError(int code, string detail)
    {
        Code = code;
        _detail = detail;
    }

    /// <summary><see cref="JsonRpcErrorCodes.ParseError"/> or <see cref="JsonRpcErrorCodes.InvalidRequest"/>; 0 when nothing is wrong (<c>default</c>).</summary>
    public int Code { get; }

    /// <summary>The spec's message for <see cref="Code"/>.</summary>
    public string Message => JsonRpcErrorCodes.GetStandardMessage(Code) ?? "Error";

    /// <summary>What exactly is wrong; the empty string when nothing is (<c>default</c>).</summary>
    public string Detail => _detail ?? string.Empty;

    /// <summary>The error as an exception, with the id when it could be read.</summary>
    public JsonRpcProtocolException ToException(RequestId id = default) => new(Code, Detail, id);
}
