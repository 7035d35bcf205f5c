using System.Text.Json;

namespace JsonRpc.Protocol;

/// <summary>
/// Input that is not JSON (<see cref="JsonRpcErrorCodes.ParseError"/>) or not a valid JSON-RPC message
/// (<see cref="JsonRpcErrorCodes.InvalidRequest"/>). Carries the error to answer with and the id when it could be read.
/// </summary>
/// <remarks>Derives from <see cref="JsonException"/> so that callers of <see cref="JsonSerializer"/> can catch it as usual.</remarks>
public sealed class JsonRpcProtocolException : JsonException
{
    /// <summary>Creates the exception.</summary>
    /// <param name="errorCode">The JSON-RPC error code to answer with.</param>
    /// <param name="detail">What exactly is wrong.</param>
    /// <param name="id">The id of the offending message when it could be read.</param>
    public JsonRpcProtocolException(int errorCode, string detail, RequestId id = default)
        : base(FormatMessage(errorCode, detail))
    {
        ErrorCode = errorCode;
        Detail = detail;
        Id = id;
    }

    /// <summary>The JSON-RPC error code to answer with.</summary>
    public int ErrorCode { get; }

    /// <summary>What exactly is wrong, without the code's standard message.</summary>
    public string Detail { get; }

    /// <summary>The id of the offending message when it could be read; otherwise <see cref="RequestId.None"/>.</summary>
    public RequestId Id { get; }

    /// <summary>
    /// The error answer: the spec's code and message, and the id (null when it could not be read). With
    /// <paramref name="includeDetail"/> the detail goes into <c>error.data</c> as a string.
    /// </summary>
    public JsonRpcError ToErrorResponse(bool includeDetail = false)
        => new(Id, JsonRpcErrorDetail.FromCode(
            ErrorCode,
            includeDetail ? RawJson.From(Detail, Serialization.JsonRpcJsonContext.Default.String) : default));

    private static string FormatMessage(int code, string detail)
        => $"{JsonRpcErrorCodes.GetStandardMessage(code) ?? "Error"} ({code}): {detail}";
}
