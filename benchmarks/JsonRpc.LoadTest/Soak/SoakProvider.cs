using System.Net;
using System.Text.Json.Serialization;
using JsonRpc.Client;
using JsonRpc.LoadTest.Engine;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Soak;

/// <summary>
/// A provider of the soak's methods through a reconnecting <see cref="JsonRpcClient"/>: <c>echo</c> (its params as its
/// result) and <c>slow</c> (the same after 200 ms, unless cancelled). Both nodes have one, as a shared registration,
/// so a call finds a provider while either is down.
/// </summary>
internal sealed class SoakProvider : IAsyncDisposable
{
    public const string Slow = "slow";
    public const string Event = "soak.tick";

    private readonly JsonRpcClient _client;

    private SoakProvider(JsonRpcClient client) => _client = client;

    public static async Task<SoakProvider> StartAsync(EndPoint endPoint, string name, CancellationToken cancellationToken)
    {
        var client = await SoakRun.Connect(endPoint, reconnect: true, cancellationToken).ConfigureAwait(false);
        try
        {
            client.AddRawMethod(EchoPayload.Method, static (parameters, _) => new ValueTask<RawJson>(parameters));
            client.AddRawMethod(Slow, static async (parameters, ct) =>
            {
                await Task.Delay(200, ct).ConfigureAwait(false);
                return parameters;
            });
            await client.RegisterAsync(name, cancellationToken).ConfigureAwait(false);
            return new SoakProvider(client);
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public ValueTask DisposeAsync() => _client.DisposeAsync();
}

/// <summary>Source-generated JSON for the soak's payloads.</summary>
[JsonSerializable(typeof(string))]
internal sealed partial class SoakJson : JsonSerializerContext;
