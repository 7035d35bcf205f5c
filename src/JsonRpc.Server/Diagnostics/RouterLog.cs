using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Diagnostics;

/// <summary>The router's structured log events, source-generated.</summary>
internal static partial class RouterLog
{
    [LoggerMessage(1, LogLevel.Information, "Connection {ConnectionId} opened from {RemoteEndPoint}.")]
    public static partial void ConnectionOpened(ILogger logger, string connectionId, string? remoteEndPoint);

    [LoggerMessage(2, LogLevel.Information, "Connection {ConnectionId} ({ClientName}) closed: {Reason}.")]
    public static partial void ConnectionClosed(ILogger logger, string connectionId, string? clientName, CloseReason reason);

    [LoggerMessage(3, LogLevel.Warning, "Connection {ConnectionId} refused: {Limit} connections are open.")]
    public static partial void ConnectionRejected(ILogger logger, string connectionId, int limit);

    [LoggerMessage(4, LogLevel.Information, "Connection {ConnectionId} registered as {ClientName}.")]
    public static partial void ClientRegistered(ILogger logger, string connectionId, string clientName);

    [LoggerMessage(5, LogLevel.Warning, "Connection {ConnectionId} registration refused: {Reason}.")]
    public static partial void RegistrationRefused(ILogger logger, string connectionId, string reason);

    [LoggerMessage(6, LogLevel.Debug, "{ClientName} provides {Method}.")]
    public static partial void MethodRegistered(ILogger logger, string clientName, string method);

    [LoggerMessage(7, LogLevel.Debug, "{ClientName} no longer provides {Method}.")]
    public static partial void MethodUnregistered(ILogger logger, string clientName, string method);

    [LoggerMessage(8, LogLevel.Debug, "{ClientName} subscribed to {Event}.")]
    public static partial void Subscribed(ILogger logger, string clientName, string @event);

    [LoggerMessage(9, LogLevel.Debug, "Connection {ConnectionId} sent an invalid message ({Code}): {Detail}")]
    public static partial void InvalidMessage(ILogger logger, string connectionId, int code, string detail);

    [LoggerMessage(10, LogLevel.Warning, "Connection {ConnectionId} sent a message over the {Limit}-byte limit; closing it.")]
    public static partial void MessageTooLarge(ILogger logger, string connectionId, int limit);

    [LoggerMessage(39, LogLevel.Information, "JSON-RPC router listening on {EndPoint} (raw TCP JSON-RPC, newline-delimited or Content-Length framed; not HTTP, whatever Kestrel's own line calls it)")]
    public static partial void ListeningRaw(ILogger logger, string endPoint);

    [LoggerMessage(38, LogLevel.Information, "Connection {ConnectionId} from {RemoteEndPoint} sent an HTTP request to the raw TCP port; answered with a hint and closed. {Hint}")]
    public static partial void HttpOnTcpPort(ILogger logger, string connectionId, string? remoteEndPoint, string hint);

    [LoggerMessage(11, LogLevel.Warning, "Connection {ConnectionId} ({ClientName}) fell {Limit} bytes behind in reading; dropping it.")]
    public static partial void OutboundLimitExceeded(ILogger logger, string connectionId, string? clientName, int limit);

    [LoggerMessage(12, LogLevel.Debug, "Call {RouterId} to {ClientName} timed out.")]
    public static partial void CallTimedOut(ILogger logger, long routerId, string? clientName);

    [LoggerMessage(13, LogLevel.Debug, "Connection {ConnectionId} ({ClientName}) sent an answer to no call of its own; dropped.")]
    public static partial void AnswerDropped(ILogger logger, string connectionId, string? clientName);

    [LoggerMessage(14, LogLevel.Information, "Router shutting down: {Pending} calls pending, {Connections} connections open.")]
    public static partial void ShuttingDown(ILogger logger, long pending, long connections);

    [LoggerMessage(15, LogLevel.Error, "Connection {ConnectionId} failed.")]
    public static partial void ConnectionFailed(ILogger logger, string connectionId, Exception exception);

    [LoggerMessage(16, LogLevel.Error, "Host method {Method} failed.")]
    public static partial void HostMethodFailed(ILogger logger, string method, Exception exception);

    [LoggerMessage(18, LogLevel.Warning, "Connection {ConnectionId} refused: a WebSocket from a page of {Origin}, not the router's own origin.")]
    public static partial void ForeignOriginRefused(ILogger logger, string connectionId, string origin);

    [LoggerMessage(17, LogLevel.Information, "JSON-RPC router listening on {Endpoint}{Tls}.")]
    public static partial void Listening(ILogger logger, string endpoint, string tls);

    [LoggerMessage(18, LogLevel.Debug, "Connection {ConnectionId} ({ClientName}) cancelled call {Id}: {Forwarded} provider call(s) told, host call cancelled: {HostCall}.")]
    public static partial void CancelRequested(ILogger logger, string connectionId, string? clientName, string id, int forwarded, bool hostCall);

    [LoggerMessage(19, LogLevel.Debug, "Connection {ConnectionId} ({ClientName}) sent a $/cancelRequest without a usable id; ignored.")]
    public static partial void CancelIgnored(ILogger logger, string connectionId, string? clientName);

    [LoggerMessage(30, LogLevel.Warning, "Refused ({Reason}): identity {Identity}, connection {ConnectionId}, {What}: {Rule}.")]
    public static partial void Refused(ILogger logger, string reason, string identity, string connectionId, string what, string rule);

    [LoggerMessage(35, LogLevel.Warning, "Refused ({Reason}): identity {Identity}, connection {ConnectionId}, {What}: {Rule}. {Suppressed} more refusals were not logged, over the audit log rate.")]
    public static partial void RefusedAfterSuppressed(ILogger logger, string reason, string identity, string connectionId, string what, string rule, long suppressed);

    [LoggerMessage(31, LogLevel.Information, "Connection {ConnectionId} authenticated as {Identity} ({Method}).")]
    public static partial void Authenticated(ILogger logger, string connectionId, string identity, string method);

    [LoggerMessage(42, LogLevel.Warning, "Security:Jwt has no {Entry}: any token its keys signed is accepted, whatever its iss and aud. Give Issuers and Audiences to accept only tokens issued by and for those.")]
    public static partial void JwtUnscoped(ILogger logger, string entry);

    [LoggerMessage(40, LogLevel.Information, "Connection {ConnectionId}: the token of {Identity} expired at {Expires:O}; it is unauthenticated until it authenticates again.")]
    public static partial void CredentialsExpired(ILogger logger, string connectionId, string identity, DateTime expires);

    [LoggerMessage(32, LogLevel.Information, "Security configuration reloaded: {Connections} connections checked, {Removed} registrations no longer allowed were removed.")]
    public static partial void SecurityReloaded(ILogger logger, int connections, int removed);

    [LoggerMessage(33, LogLevel.Error, "Security configuration not reloaded, the one in force stays: {Problem}")]
    public static partial void SecurityReloadFailed(ILogger logger, string problem);

    [LoggerMessage(34, LogLevel.Information, "Identity {Identity} ({ConnectionId}) may no longer {Permission} {Name}; removed.")]
    public static partial void RegistrationRevoked(ILogger logger, string identity, string connectionId, string permission, string name);

    [LoggerMessage(41, LogLevel.Warning, "Connection {ConnectionId} ({ClientName}) no longer provides {Method}: {Owner} claimed it exclusively on node {Node} at the same time as {LocalOwner} here, and the lower owner wins on every node.")]
    public static partial void ExclusiveClaimLost(ILogger logger, string connectionId, string? clientName, string method, string owner, string node, string localOwner);

    [LoggerMessage(37, LogLevel.Debug, "Connection {ConnectionId} ({ClientName}) has {Held} bytes waiting for it: not reading from it until it takes them.")]
    public static partial void ReadPaused(ILogger logger, string connectionId, string? clientName, long held);

    [LoggerMessage(36, LogLevel.Warning, "Memory budget nearly spent ({Held} of {Max} bytes held for clients): new calls are refused with -32018 (connection {ConnectionId}; {Refused} refused since start).")]
    public static partial void MemoryBudgetReached(ILogger logger, string connectionId, long held, long max, long refused);
}
