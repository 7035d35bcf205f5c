using Microsoft.Extensions.Logging;

namespace JsonRpc.Client.Internal;

/// <summary>The client's log messages, source-generated.</summary>
internal static partial class Log
{
    [LoggerMessage(1, LogLevel.Information, "Connected to {EndPoint}.")]
    public static partial void Connected(ILogger logger, string endPoint);

    [LoggerMessage(2, LogLevel.Warning, "Connection to {EndPoint} lost; {PendingCalls} pending calls failed.")]
    public static partial void ConnectionLost(ILogger logger, string endPoint, int pendingCalls, Exception reason);

    [LoggerMessage(3, LogLevel.Information, "Reconnect attempt {Attempt} to {EndPoint} in {Delay}.")]
    public static partial void ReconnectScheduled(ILogger logger, int attempt, string endPoint, TimeSpan delay);

    [LoggerMessage(4, LogLevel.Warning, "Reconnect attempt {Attempt} to {EndPoint} failed.")]
    public static partial void ReconnectFailed(ILogger logger, int attempt, string endPoint, Exception exception);

    [LoggerMessage(5, LogLevel.Information, "Reconnected to {EndPoint}; registration, {Methods} methods and {Events} subscriptions restored.")]
    public static partial void Reconnected(ILogger logger, string endPoint, int methods, int events);

    [LoggerMessage(6, LogLevel.Error, "Gave up reconnecting to {EndPoint} after {Attempts} attempts.")]
    public static partial void ReconnectGaveUp(ILogger logger, string endPoint, int attempts);

    [LoggerMessage(7, LogLevel.Debug, "Dropped an answer with id {Id}: no call waits for it (timed out, canceled, or unknown).")]
    public static partial void AnswerDropped(ILogger logger, string id);

    [LoggerMessage(8, LogLevel.Warning, "{EndPoint} sent a message that is not valid JSON-RPC ({Code}): {Detail}")]
    public static partial void InvalidMessage(ILogger logger, string endPoint, int code, string detail);

    [LoggerMessage(9, LogLevel.Warning, "{EndPoint} reported an error without an id: {Code} {Message}")]
    public static partial void ErrorWithoutId(ILogger logger, string endPoint, int code, string message);

    [LoggerMessage(10, LogLevel.Error, "The handler of event '{Event}' threw.")]
    public static partial void EventHandlerFailed(ILogger logger, string @event, Exception exception);

    [LoggerMessage(11, LogLevel.Warning, "Event '{Event}' dropped: its handler is {Capacity} events behind.")]
    public static partial void EventDropped(ILogger logger, string @event, int capacity);

    [LoggerMessage(12, LogLevel.Warning, "Keep-alive got no answer from {EndPoint}; closing the connection as dead.")]
    public static partial void KeepAliveFailed(ILogger logger, string endPoint);

    [LoggerMessage(13, LogLevel.Error, "Processing a message from {EndPoint} failed.")]
    public static partial void ProcessingFailed(ILogger logger, string endPoint, Exception exception);

    [LoggerMessage(14, LogLevel.Warning, "Announcing method '{Method}' to the router failed.")]
    public static partial void AnnounceFailed(ILogger logger, string method, Exception exception);

    [LoggerMessage(15, LogLevel.Error, "A StateChanged handler threw.")]
    public static partial void StateHandlerFailed(ILogger logger, Exception exception);

    [LoggerMessage(16, LogLevel.Warning, "{EndPoint} sent a call while {Limit} of its calls were running; it was refused.")]
    public static partial void IncomingCallRefused(ILogger logger, string endPoint, int limit);

    [LoggerMessage(17, LogLevel.Warning, "{EndPoint} is not reading what it is sent; an error reply ({Code}) was dropped.")]
    public static partial void ErrorReplyDropped(ILogger logger, string endPoint, int code);

    [LoggerMessage(18, LogLevel.Debug, "{EndPoint} sent a $/cancelRequest for no call of its own that runs here (unknown, finished, or no usable id); ignored.")]
    public static partial void CancelIgnored(ILogger logger, string endPoint);

    [LoggerMessage(19, LogLevel.Debug, "Could not tell {EndPoint} that call {Id} was cancelled: the connection is going.")]
    public static partial void CancelNotSent(ILogger logger, string endPoint, long id, Exception exception);

    [LoggerMessage(40, LogLevel.Warning, "A progress report for token {Token} could not be read as the type its IProgress takes; dropped.")]
    public static partial void ProgressUnreadable(ILogger logger, long token, Exception exception);

    [LoggerMessage(41, LogLevel.Warning, "Event '{Event}' of a served target was not sent.")]
    public static partial void EventNotSent(ILogger logger, string @event, Exception exception);

    [LoggerMessage(42, LogLevel.Warning, "Could not change the router subscription to event '{Event}' that a proxy listens to.")]
    public static partial void ListenerSubscriptionFailed(ILogger logger, string @event, Exception exception);
}
