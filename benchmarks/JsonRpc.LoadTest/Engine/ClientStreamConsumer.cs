using System.Net;
using JsonRpc.Client;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Engine;

/// <summary>Our stack's caller: a <see cref="JsonRpcClient"/> streaming with <c>StreamAsync&lt;int&gt;</c>.</summary>
internal sealed class ClientStreamConsumer : IStreamConsumer
{
    private readonly JsonRpcClient _client;

    private ClientStreamConsumer(JsonRpcClient client) => _client = client;

    public static async Task<IStreamConsumer> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var (host, port) = endPoint switch
        {
            IPEndPoint ip => (ip.Address.ToString(), ip.Port),
            DnsEndPoint dns => (dns.Host, dns.Port),
            _ => throw new ArgumentException($"Cannot connect a JsonRpcClient to {endPoint}.", nameof(endPoint)),
        };
        return new ClientStreamConsumer(await JsonRpcClient.ConnectAsync(host, port, cancellationToken: cancellationToken).ConfigureAwait(false));
    }

    public IAsyncEnumerable<int> StreamAsync(int count, CancellationToken cancellationToken)
        => _client.StreamAsync("values", RawJson.From([count], StreamingJsonContext.Default.Int32Array), StreamingJsonContext.Default.Int32, cancellationToken);

    public ValueTask DisposeAsync() => _client.DisposeAsync();
}
