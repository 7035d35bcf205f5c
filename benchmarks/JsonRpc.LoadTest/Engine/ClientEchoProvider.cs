using System.Net;
using JsonRpc.Client;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The echo provider through <see cref="JsonRpcClient"/>: a raw method that returns its params as its result,
/// registered with the router the way an application would (<see cref="JsonRpcClient.RegisterAsync"/>).
/// </summary>
internal sealed class ClientEchoProvider : IEchoProvider
{
    private readonly JsonRpcClient _client;
    private ClientEchoProvider(JsonRpcClient client) => _client = client;

    public string? Failure => _client.State is JsonRpcClientState.Connected or JsonRpcClientState.Disposed ? null : $"the provider's client is {_client.State}";

    public static async Task<ClientEchoProvider> StartAsync(EndPoint endPoint, string name, int payloadSize, CancellationToken cancellationToken)
    {
        var client = await ClientConnections.ConnectAsync(endPoint, payloadSize, cancellationToken).ConfigureAwait(false);
        var provider = new ClientEchoProvider(client);
        try
        {
            client.AddRawMethod(EchoPayload.Method, Echo);
            await client.RegisterAsync(name, cancellationToken).ConfigureAwait(false);
            return provider;
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    private static ValueTask<RawJson> Echo(RawJson parameters, CancellationToken cancellationToken) => new(parameters);

    public ValueTask DisposeAsync() => _client.DisposeAsync();
}
