using JsonRpc.Testing;

namespace JsonRpc.Client.Tests.Infrastructure;

/// <summary>Connects this suite's clients to the shared <see cref="RouterHost"/>.</summary>
public static class RouterHostExtensions
{
    /// <summary>Connects a <see cref="JsonRpcClient"/> to the router, bounded by the test timeout.</summary>
    public static Task<JsonRpcClient> ConnectAsync(this RouterHost router, JsonRpcClientOptions? options = null)
        => JsonRpcClient.ConnectAsync("127.0.0.1", router.Port, options).WaitAsync(Bounded.Timeout);
}
