using JsonRpc.Server;
using JsonRpc.Testing;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Testing.Lines;

/// <summary>Starts the shared <see cref="RouterHost"/> with this suite's defaults, and connects raw line clients to it.</summary>
public static class RouterServer
{
    /// <summary>
    /// A router with a 5 s call timeout (so the suite stays fast; tests that need another set it), logging to
    /// <paramref name="output"/>, on Kestrel with the router's large socket buffers as the standalone router runs
    /// (<c>AddJsonRpcRouterLargeBlocks</c>), so that its limits are tested as users get them.
    /// </summary>
    public static Task<RouterHost> StartAsync(
        Action<JsonRpcRouterOptions>? configure = null,
        ITestOutputHelper? output = null,
        Action<JsonRpcRouter>? setup = null,
        Action<WebApplicationBuilder>? build = null)
        => RouterHost.StartAsync(
            options =>
            {
                options.CallTimeout = TimeSpan.FromSeconds(5);
                configure?.Invoke(options);
            },
            logger: output is null ? null : new TestOutputLoggerProvider(output),
            setup: setup,
            build: builder =>
            {
                builder.Services.AddJsonRpcRouterLargeBlocks();
                build?.Invoke(builder);
            });

    public static Task<LineClient> ConnectAsync(this RouterHost server) => LineClient.ConnectAsync(server.Port);

    public static async Task<LineClient> ConnectRegisteredAsync(this RouterHost server, string name, params string[] methods)
    {
        var client = await server.ConnectAsync();
        await client.RegisterAsync(name);
        foreach (var method in methods)
        {
            await client.ProvideAsync(method);
        }

        return client;
    }
}
