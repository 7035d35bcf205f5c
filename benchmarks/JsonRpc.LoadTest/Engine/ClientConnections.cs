using System.Net;
using JsonRpc.Client;

namespace JsonRpc.LoadTest.Engine;

/// <summary>How the load test opens <see cref="JsonRpcClient"/> connections: no reconnecting (a lost connection is a failure to report), messages big enough for the payload.</summary>
internal static class ClientConnections
{
    public static Task<JsonRpcClient> ConnectAsync(EndPoint endPoint, int payloadSize, CancellationToken cancellationToken)
    {
        var (host, port) = endPoint switch
        {
            IPEndPoint ip => (ip.Address.ToString(), ip.Port),
            DnsEndPoint dns => (dns.Host, dns.Port),
            _ => throw new ArgumentException($"Unsupported end point {endPoint}.", nameof(endPoint)),
        };
        var options = new JsonRpcClientOptions
        {
            MaxMessageSize = Math.Max(JsonRpcClientOptions.DefaultMaxMessageSize, (payloadSize * 2) + 4096),
            Reconnect = new JsonRpcReconnectOptions { Enabled = false },
            AccessToken = LoadAuth.Token,
        };
        return JsonRpcClient.ConnectAsync(host, port, options, cancellationToken);
    }
}
