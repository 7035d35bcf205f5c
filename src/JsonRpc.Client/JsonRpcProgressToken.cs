namespace JsonRpc.Client;

/// <summary>
/// A progress token of this client (<see cref="JsonRpcClient.CreateProgress{T}(IProgress{T}, System.Text.Json.Serialization.Metadata.JsonTypeInfo{T})"/>):
/// put <see cref="Token"/> in a call's params where the method expects it (a StreamJsonRpc <c>IProgress&lt;T&gt;</c>
/// argument, an LSP <c>workDoneToken</c> or <c>partialResultToken</c>, an MCP <c>_meta.progressToken</c>), and the
/// reports the peer sends for it (<c>$/progress</c>, <c>notifications/progress</c>) reach the <see cref="IProgress{T}"/>,
/// in order, on the connection's read loop, before the call's answer. Dispose it once the call has ended.
/// </summary>
public sealed class JsonRpcProgressToken : IDisposable
{
    private readonly JsonRpcClient _client;

    internal JsonRpcProgressToken(JsonRpcClient client, long token, Action<ReadOnlyMemory<byte>> report)
    {
        _client = client;
        Token = token;
        Report = report;
    }

    /// <summary>The token, unique in this client: send it as the peer expects.</summary>
    public long Token { get; }

    internal Action<ReadOnlyMemory<byte>> Report { get; }

    /// <summary>Stops delivering reports for the token; later ones are ignored.</summary>
    public void Dispose() => _client.ForgetProgress(Token);
}
