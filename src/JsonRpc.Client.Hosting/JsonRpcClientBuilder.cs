using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Client.Hosting;

internal sealed class JsonRpcClientBuilder(string name, IServiceCollection services) : IJsonRpcClientBuilder
{
    public string Name => name;

    public IServiceCollection Services => services;
}
