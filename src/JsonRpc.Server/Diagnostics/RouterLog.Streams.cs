using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Diagnostics;

internal static partial class RouterLog
{
    [LoggerMessage(60, LogLevel.Warning, "A stream for {ConnectionId} ({ClientName}) was refused: its buffers are at their bound of {Limit} bytes.")]
    public static partial void StreamRefused(ILogger logger, string connectionId, string? clientName, int limit);

    [LoggerMessage(61, LogLevel.Debug, "Progress from {ConnectionId} ({ClientName}) for token {Token} dropped: {Reason}.")]
    public static partial void ProgressDropped(ILogger logger, string connectionId, string? clientName, string token, string reason);

    [LoggerMessage(62, LogLevel.Debug, "{Method} from {ConnectionId} ({ClientName}) names no stream of its own (token {Token}).")]
    public static partial void StreamUnknown(ILogger logger, string method, string connectionId, string? clientName, long token);
}
