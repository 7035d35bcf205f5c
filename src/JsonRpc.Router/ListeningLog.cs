using System.Net;
using JsonRpc.Server;

namespace JsonRpc.Router;

/// <summary>The router's first lines: what listens where, in URIs a client can use as they are.</summary>
internal static partial class ListeningLog
{
    public static void Write(ILogger logger, JsonRpcRouterListeners listeners)
    {
        if (listeners.Tcp is { } tcp)
        {
            Tcp(logger, (listeners.Tls ? "tls://" : "tcp://") + Format(tcp));
        }

        if (listeners.Http is { } http)
        {
            var authority = Format(http);
            var (web, socket) = listeners.Tls ? ("https://", "wss://") : ("http://", "ws://");
            Http(logger, $"{web}{authority}/rpc", $"{socket}{authority}/rpc", $"{web}{authority}/", $"{web}{authority}/healthz", $"{web}{authority}/metrics");
        }

        Ready(logger);
    }

    private static string Format(IPEndPoint endPoint) => endPoint.ToString();

    [LoggerMessage(1, LogLevel.Information, "JSON-RPC router listening on {Endpoint}")]
    private static partial void Tcp(ILogger logger, string endpoint);

    [LoggerMessage(2, LogLevel.Information, "JSON-RPC router listening on {Post} (HTTP POST) and {WebSocket} (WebSocket); dashboard {Dashboard}, health {Health}, metrics {Metrics}")]
    private static partial void Http(ILogger logger, string post, string webSocket, string dashboard, string health, string metrics);

    [LoggerMessage(3, LogLevel.Information, "Press Ctrl+C to stop.")]
    private static partial void Ready(ILogger logger);
}
