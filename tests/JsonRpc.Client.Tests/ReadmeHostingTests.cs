using System.Globalization;
using System.Net;
using JsonRpc.Client.Tests.Contracts;
using JsonRpc.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Client.Tests;

/// <summary>
/// README.md's "Dependency injection and health checks" example, its two code blocks compiled and run: the router's
/// app serving ICalculator from DI with its /healthz, and another app with a typed proxy from configuration and a worker
/// serving IReports from DI through that router. The last test fails when a block differs from the code run here.
/// </summary>
public sealed class ReadmeHostingTests
{
    private const string RouterRegion = "// --- README router app ---";
    private const string ClientRegion = "// --- README client app ---";
    private const string RegionEnd = "// --- end ---";

    [Fact]
    public async Task DependencyInjection_AsDocumented_ServesCallsAndReportsHealth()
    {
        ListenOptions? tcp = null, http = null;
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, 0, listen => (tcp = listen).UseJsonRpcRouter());
            kestrel.Listen(IPAddress.Loopback, 0, listen => http = listen);
        });
        {
            // --- README router app ---
            // The router's app (JsonRpc.Server): ICalculator served as the router's own methods, its health at /healthz.
            builder.Services.AddJsonRpcRouter();
            builder.Services.AddJsonRpcTarget<ICalculator, Calculator>();   // Calculator: resolved from a new scope for each call
            builder.Services.AddHealthChecks().AddJsonRpcRouter();          // Healthy; Degraded near max_memory; Unhealthy when stopping
            var app = builder.Build();
            app.MapHealthChecks("/healthz");                                // 200, or 503 once the router is shutting down
            // --- end ---

            await using (app)
            {
                await app.StartAsync().Within();
                var port = ((IPEndPoint)tcp!.EndPoint).Port.ToString(CultureInfo.InvariantCulture);
                using var web = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{((IPEndPoint)http!.EndPoint).Port}") };
                using (var healthz = await web.GetAsync(new Uri("/healthz", UriKind.Relative)).Within())
                {
                    Assert.Equal(HttpStatusCode.OK, healthz.StatusCode);
                    Assert.Equal("Healthy", await healthz.Content.ReadAsStringAsync().Within());
                }

                await RunClientAppAsync(port);

                await app.Services.GetRequiredService<JsonRpcRouter>().ShutdownAsync().Within();
                using var stopping = await web.GetAsync(new Uri("/healthz", UriKind.Relative)).Within();
                Assert.Equal(HttpStatusCode.ServiceUnavailable, stopping.StatusCode);
                await app.StopAsync().Within();
            }
        }
    }

    private static async Task RunClientAppAsync(string port)
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["JsonRpc:Clients:Calculator:Uri"] = $"tcp://127.0.0.1:{port}",
            ["JsonRpc:Clients:Calculator:CallTimeout"] = "00:00:10",
            ["JsonRpc:Clients:Worker:Host"] = "127.0.0.1",
            ["JsonRpc:Clients:Worker:Port"] = port,
        });
        {
            // --- README client app ---
            // Any other app (JsonRpc.Client.Hosting, no ASP.NET Core needed): one connection opened when the host starts,
            // ICalculator injectable, options from the configuration section "JsonRpc:Clients:Calculator".
            builder.Services.AddJsonRpcClient<ICalculator>();
            builder.Services.AddHealthChecks().AddJsonRpcClient("Calculator"); // Healthy connected, Degraded reconnecting

            // A worker serving a contract through the router from DI (registers as "Worker" and announces the methods).
            builder.Services.AddJsonRpcClient("Worker").AddTarget<IReports, ReportService>();
            // --- end ---
        }

        using var host = builder.Build();
        await host.StartAsync().Within();
        Assert.Equal(5, await host.Services.GetRequiredService<ICalculator>().AddAsync(2, 3).Within());
        var health = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync().Within();
        Assert.Equal(HealthStatus.Healthy, health.Status);

        // The worker's IReports, served from DI, reached through the router by a caller of its own.
        await using var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", int.Parse(port, CultureInfo.InvariantCulture)).Within();
        Assert.Equal(7, await caller.Attach<IReports>().CountAsync("billing").Within());
        await host.StopAsync().Within();
    }

    [Theory]
    [InlineData(RouterRegion, 0)]
    [InlineData(ClientRegion, 1)]
    public void DependencyInjection_ReadmeBlocks_AreTheCodeTheTestRuns(string region, int block)
    {
        var readme = File.ReadAllText(Path.Combine(RepositoryLayout.Root, "README.md"));
        var start = readme.IndexOf("## Dependency injection and health checks", StringComparison.Ordinal);
        for (var i = 0; i <= block; i++)
        {
            start = readme.IndexOf("```csharp", start, StringComparison.Ordinal) + "```csharp".Length;
        }

        var documented = readme[start..readme.IndexOf("```", start, StringComparison.Ordinal)];
        var test = File.ReadAllText(Path.Combine(RepositoryLayout.Root, "tests", "JsonRpc.Client.Tests", "ReadmeHostingTests.cs"));
        var from = test.LastIndexOf(region, StringComparison.Ordinal) + region.Length; // the marker in the code, not the constant
        var run = test[from..test.IndexOf(RegionEnd, from, StringComparison.Ordinal)];

        Assert.Equal(Normalize(documented), Normalize(run));
    }

    private static string Normalize(string code)
        => string.Join('\n', code.Split('\n').Select(line => line.Trim()).Where(line => line.Length > 0));
}
