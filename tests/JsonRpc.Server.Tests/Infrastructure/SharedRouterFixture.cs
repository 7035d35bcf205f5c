using JsonRpc.Testing;

namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>
/// One router for a whole test class, for tests that only need a working router and assert nothing about its global
/// counters (xunit runs the tests of a class one at a time).
/// </summary>
public sealed class SharedRouterFixture : IAsyncLifetime
{
    private RouterHost? _server;

    public RouterHost Server => _server ?? throw new InvalidOperationException("Not started.");

    public async Task InitializeAsync() => _server = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300));

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}
