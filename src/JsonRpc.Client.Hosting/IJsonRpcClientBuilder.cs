using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Client.Hosting;

/// <summary>One hosted client (<c>AddJsonRpcClient</c>): add the proxies it gives and the targets it serves.</summary>
public interface IJsonRpcClientBuilder
{
    /// <summary>The client's name: its options' name and configuration section (<c>JsonRpc:Clients:{Name}</c>), and its key in the service collection.</summary>
    string Name { get; }

    /// <summary>The service collection.</summary>
    IServiceCollection Services { get; }
}
