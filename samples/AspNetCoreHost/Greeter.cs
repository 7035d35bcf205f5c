using JsonRpc.Contracts;

namespace AspNetCoreHost;

/// <summary>A JSON-RPC contract the app serves from dependency injection (<c>AddJsonRpcTarget</c>): one method, <c>greet</c>.</summary>
[JsonRpcContract(typeof(HostJson))]
public interface IGreeter
{
    [JsonRpcMethod("greet")]
    Task<string> GreetAsync(string name, CancellationToken cancellationToken = default);
}

/// <summary>
/// Served from a new DI scope for each call, so it may take scoped services (a DbContext, say) like a controller does;
/// here the app's configuration (<c>Greeting</c>, default "Hello").
/// </summary>
public sealed class Greeter(IConfiguration configuration) : IGreeter
{
    public Task<string> GreetAsync(string name, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return Task.FromResult($"{configuration["Greeting"] ?? "Hello"}, {name}!");
    }
}
