using System.Globalization;
using JsonRpc.Client.Tests.Contracts;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Server;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace JsonRpc.Client.Tests;

/// <summary>
/// Dependency injection in a host: AddJsonRpcTarget served by the hosted router and by a hosted client with a scope
/// per call, AddJsonRpcClient's typed proxies and options from configuration, and the health checks. Real router on
/// Kestrel, real sockets, real hosts.
/// </summary>
public sealed class HostingTests
{
    private static void AddScopeServices(IServiceCollection services)
    {
        services.AddSingleton<ScopeLedger>();
        services.AddScoped<ScopedDependency>();
    }

    private static IHost BuildClientHost(Dictionary<string, string?> configuration, Action<IServiceCollection> configure)
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(configuration);
        AddScopeServices(builder.Services);
        configure(builder.Services);
        return builder.Build();
    }

    private static string Port(RouterHost router) => router.Port.ToString(CultureInfo.InvariantCulture);

    [Fact]
    public async Task AddJsonRpcTarget_HostedRouter_ServesEachCallFromANewScope()
    {
        await using var router = await RouterHost.StartAsync(build: b =>
        {
            AddScopeServices(b.Services);
            b.Services.AddJsonRpcTarget<IScopeProbe, ScopeProbeService>();
        });
        await using var caller = await router.ConnectAsync();
        var probe = caller.Attach<IScopeProbe>();

        int[] ids = [await probe.ScopeAsync().Within(), await probe.ScopeAsync().Within(), await probe.ScopeAsync().Within()];

        Assert.Equal([1, 2, 3], ids);
        var ledger = router.Services.GetRequiredService<ScopeLedger>();
        await Eventually.TrueAsync(() => ledger.Disposed == 3, "each call's scope was disposed");
        Assert.Equal(3, ledger.Created);
        Assert.Contains("ScopeAsync", router.Router.Methods.Methods);
    }

    [Fact]
    public async Task AddJsonRpcTarget_HostedRouter_StreamsFromOneScopeUntilTheStreamEndsOrIsAbandoned()
    {
        await using var router = await RouterHost.StartAsync(build: b =>
        {
            AddScopeServices(b.Services);
            b.Services.AddJsonRpcTarget<IScopeStream, ScopeProbeService>();
        });
        await using var caller = await router.ConnectAsync();
        var ledger = router.Services.GetRequiredService<ScopeLedger>();

        var streamed = new List<int>();
        await foreach (var id in caller.Attach<IScopeStream>().ScopesAsync(3, default))
        {
            streamed.Add(id);
        }

        Assert.Equal([1, 1, 1], streamed); // one scope for the whole stream, served by the router's host methods
        await Eventually.TrueAsync(() => ledger.Disposed == 1, "the stream's scope was disposed once it ended");

        // Abandoned after its first item: the caller's abort reaches the host method's enumerator, and its scope goes.
        await foreach (var id in caller.Attach<IScopeStream>().ScopesAsync(1_000_000, default))
        {
            Assert.Equal(2, id);
            break;
        }

        await Eventually.TrueAsync(() => ledger.Disposed == 2, "the abandoned stream's scope was disposed");
        Assert.Equal(2, ledger.Created);
    }

    [Fact]
    public async Task RouterAddTarget_AWireNameOfTheRouter_IsRefusedAndNothingIsAdded()
    {
        await using var router = await RouterHost.StartAsync();

        var error = Assert.Throws<ArgumentException>(() => router.Router.AddTarget<IClashesWithTheRouter>(new Clash()));

        Assert.Contains("'keepAlive' is one of the router's own methods", error.Message);
        Assert.Empty(router.Router.Methods.Methods);
    }

    [Fact]
    public async Task AddJsonRpcTarget_HostedClient_ServesEachCallFromANewScope_AStreamFromOneUntilItEndsOrIsAbandoned()
    {
        await using var router = await RouterHost.StartAsync();
        using var host = BuildClientHost(new() { ["JsonRpc:Clients:Worker:Port"] = Port(router) }, services => services
            .AddJsonRpcClient("Worker")
            .AddTarget<IScopeProbe, ScopeProbeService>()
            .AddTarget<IScopeStream, ScopeProbeService>());
        await host.StartAsync().Within();
        await using var caller = await router.ConnectAsync();
        var ledger = host.Services.GetRequiredService<ScopeLedger>();

        Assert.Equal(1, await caller.Attach<IScopeProbe>().ScopeAsync().Within());
        Assert.Equal(2, await caller.Attach<IScopeProbe>().ScopeAsync().Within());
        var streamed = new List<int>();
        await foreach (var id in caller.Attach<IScopeStream>().ScopesAsync(3, default))
        {
            streamed.Add(id);
        }

        Assert.Equal([3, 3, 3], streamed);
        await Eventually.TrueAsync(() => ledger.Disposed == 3, "each call's scope and the stream's were disposed");
        Assert.Equal(3, ledger.Created);

        // A stream abandoned after its first item: its scope is disposed all the same.
        await foreach (var id in caller.Attach<IScopeStream>().ScopesAsync(1_000_000, default))
        {
            Assert.Equal(4, id);
            break;
        }

        await Eventually.TrueAsync(() => ledger.Disposed == 4, "the abandoned stream's scope was disposed");
        Assert.Equal(4, ledger.Created);
        Assert.Equal("Worker", host.Services.GetRequiredKeyedService<JsonRpcClient>("Worker").Name);
        await host.StopAsync().Within();
    }

    [Fact]
    public async Task AddJsonRpcClient_TypedProxyFromConfiguration_SharesOneConnection_ClosedWithTheHost()
    {
        await using var router = await RouterHost.StartAsync(build: b =>
        {
            AddScopeServices(b.Services);
            b.Services.AddJsonRpcTarget<IScopeProbe, ScopeProbeService>();
        });
        var host = BuildClientHost(new()
        {
            ["JsonRpc:Clients:ScopeProbe:Uri"] = $"tcp://127.0.0.1:{Port(router)}",
            ["JsonRpc:Clients:ScopeProbe:Framing"] = "NewlineDelimited",
            ["JsonRpc:Clients:ScopeProbe:CallTimeout"] = "00:00:20",
        }, services => services.AddJsonRpcClient<IScopeProbe>());
        await host.StartAsync().Within();

        var proxy = host.Services.GetRequiredService<IScopeProbe>();
        var keyed = host.Services.GetRequiredKeyedService<IScopeProbe>("ScopeProbe");
        Assert.Equal(1, await proxy.ScopeAsync().Within());
        Assert.Equal(2, await keyed.ScopeAsync().Within());
        Assert.Same(proxy, keyed);
        Assert.Equal(1, router.Router.GetStats().Connections);
        var client = host.Services.GetRequiredKeyedService<JsonRpcClient>("ScopeProbe");
        Assert.Null(client.Name); // only calls: it does not register

        await host.StopAsync().Within();
        host.Dispose();
        Assert.Equal(JsonRpcClientState.Disposed, client.State);
        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 0, "the router saw the connection close");
    }

    [Theory]
    [InlineData("Port", "70000", "Port 70000 is not a TCP port (1 to 65535)")]
    [InlineData("Uri", "http://127.0.0.1:1/", "Uri 'http://127.0.0.1:1/' is not a tcp://host:port, ws:// or wss:// address")]
    [InlineData("Name", " ", "Name must not be blank")]
    public async Task AddJsonRpcClient_InvalidOption_StartFailsNamingClientAndOption(string key, string value, string expected)
    {
        using var host = BuildClientHost(new() { [$"JsonRpc:Clients:Bad:{key}"] = value }, services => services.AddJsonRpcClient("Bad"));

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync().Within());
        Assert.Contains("JSON-RPC client 'Bad' (JsonRpc:Clients:Bad)", error.Message);
        Assert.Contains(expected, error.Message);
    }

    [Theory]
    [InlineData("Port", "eighty", "Configuration 'JsonRpc:Clients:Bad:Port': 'eighty' is not a whole number.")]
    [InlineData("Framing", "Json", "Configuration 'JsonRpc:Clients:Bad:Framing': 'Json' is not NewlineDelimited or ContentLength.")]
    [InlineData("Reconnect", "sometimes", "Configuration 'JsonRpc:Clients:Bad:Reconnect': 'sometimes' is not true or false.")]
    [InlineData("CallTimeout", "soon", "Configuration 'JsonRpc:Clients:Bad:CallTimeout': 'soon' is not a time span such as 00:00:05.")]
    public async Task AddJsonRpcClient_ValueThatDoesNotParse_StartFailsNamingTheKey(string key, string value, string expected)
    {
        using var host = BuildClientHost(new() { [$"JsonRpc:Clients:Bad:{key}"] = value }, services => services.AddJsonRpcClient("Bad"));

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => host.StartAsync().Within());
        Assert.Equal(expected, error.Message);
    }

    [Fact]
    public async Task AddJsonRpcClient_NoAddress_StartFailsSayingWhatIsRequired()
    {
        using var host = BuildClientHost([], services => services.AddJsonRpcClient("Nowhere"));

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync().Within());
        Assert.Contains("JSON-RPC client 'Nowhere' (JsonRpc:Clients:Nowhere): Uri or Port is required", error.Message);
    }

    [Fact]
    public async Task AddJsonRpcTarget_ForAClientNotAdded_StartFailsNamingIt()
    {
        await using var router = await RouterHost.StartAsync();
        using var host = BuildClientHost(new() { ["JsonRpc:Clients:Worker:Port"] = Port(router) }, services =>
        {
            services.AddJsonRpcClient("Worker");
            services.AddJsonRpcTarget<IScopeProbe, ScopeProbeService>("Wroker");
        });

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => host.StartAsync().Within());
        Assert.Contains("no JSON-RPC client is named 'Wroker'", error.Message);
        Assert.Contains("IScopeProbe", error.Message);
    }

    [Fact]
    public async Task AddJsonRpcClient_RouterNotYetListening_StartWaitsAndConnectsWhenItIs()
    {
        // A free port: taken by a router that is started only after the host began connecting to it.
        int port;
        await using (var probe = await RouterHost.StartAsync())
        {
            port = probe.Port;
        }

        using var host = BuildClientHost(new()
        {
            ["JsonRpc:Clients:ScopeProbe:Port"] = port.ToString(CultureInfo.InvariantCulture),
            ["JsonRpc:Clients:ScopeProbe:Reconnect:InitialDelay"] = "00:00:00.050",
            ["JsonRpc:Clients:ScopeProbe:Reconnect:MaxDelay"] = "00:00:00.200",
        }, services => services.AddJsonRpcClient<IScopeProbe>());
        var starting = host.StartAsync();
        Assert.False(starting.IsCompleted);
        await using var router = await RouterHost.StartAsync(port: port, build: b =>
        {
            AddScopeServices(b.Services);
            b.Services.AddJsonRpcTarget<IScopeProbe, ScopeProbeService>();
        });

        await starting.Within();
        Assert.Equal(1, await host.Services.GetRequiredService<IScopeProbe>().ScopeAsync().Within());
        await host.StopAsync().Within();
    }

    [Fact]
    public async Task HealthChecks_RouterHealthyWhileServing_UnhealthyOnceShuttingDown()
    {
        await using var router = await RouterHost.StartAsync(build: b => b.Services.AddHealthChecks().AddJsonRpcRouter());
        var health = router.Services.GetRequiredService<HealthCheckService>();

        var serving = await health.CheckHealthAsync().Within();
        Assert.Equal(HealthStatus.Healthy, serving.Status);
        Assert.Equal(HealthStatus.Healthy, serving.Entries["jsonrpc-router"].Status);

        await router.Router.ShutdownAsync().Within();
        var stopping = await health.CheckHealthAsync().Within();
        Assert.Equal(HealthStatus.Unhealthy, stopping.Status);
        Assert.Equal("Shutting down", stopping.Entries["jsonrpc-router"].Description);
    }

    [Fact]
    public async Task HealthChecks_HostedClient_HealthyWhenConnected_DegradedWhileReconnecting()
    {
        var router = await RouterHost.StartAsync();
        var routerStopped = false;
        try
        {
            using var host = BuildClientHost(new() { ["JsonRpc:Clients:Worker:Port"] = Port(router) }, services =>
            {
                services.AddJsonRpcClient("Worker");
                services.AddHealthChecks().AddJsonRpcClient("Worker");
            });
            var health = host.Services.GetRequiredService<HealthCheckService>();
            Assert.Equal(HealthStatus.Unhealthy, (await health.CheckHealthAsync().Within()).Status); // not started

            await host.StartAsync().Within();
            Assert.Equal(HealthStatus.Healthy, (await health.CheckHealthAsync().Within()).Status);

            routerStopped = true;
            await router.DisposeAsync();
            await Eventually.TrueAsync(async () => (await health.CheckHealthAsync()).Status == HealthStatus.Degraded, "the client is reconnecting");
            await host.StopAsync().Within();
        }
        finally
        {
            if (!routerStopped)
            {
                await router.DisposeAsync();
            }
        }
    }
}
