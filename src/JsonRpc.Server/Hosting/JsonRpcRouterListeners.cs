using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace JsonRpc.Server;

/// <summary>
/// Where <c>ListenJsonRpcRouter</c> put the router: its TCP endpoint and, with <see cref="JsonRpcRouterOptions.HttpPort"/>,
/// its HTTP endpoint, with the ports actually bound once the server has started (port 0 picks a free one). A
/// singleton service registered by <c>AddJsonRpcRouter</c>.
/// </summary>
public sealed class JsonRpcRouterListeners
{
    private ListenOptions? _tcp;
    private ListenOptions? _http;

    /// <summary>The TCP endpoint (raw JSON-RPC, newline-delimited or Content-Length framed), once listening.</summary>
    public IPEndPoint? Tcp => (_tcp?.EndPoint as IPEndPoint) ?? _tcp?.IPEndPoint;

    /// <summary>The HTTP endpoint (<c>/rpc</c> for WebSocket and POST, <c>/healthz</c>, the dashboard at <c>/</c>), or null when off.</summary>
    public IPEndPoint? Http => (_http?.EndPoint as IPEndPoint) ?? _http?.IPEndPoint;

    /// <summary>Whether both endpoints speak TLS (a certificate is configured): tls:// and https:// / wss://.</summary>
    public bool Tls { get; private set; }

    internal void SetTcp(ListenOptions listen, bool tls)
    {
        _tcp = listen;
        Tls = tls;
    }

    internal void SetHttp(ListenOptions listen) => _http = listen;
}
