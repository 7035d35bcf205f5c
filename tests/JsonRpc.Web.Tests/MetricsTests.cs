using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using JsonRpc.Client;
using JsonRpc.Web.Tests.Infrastructure;

namespace JsonRpc.Web.Tests;

/// <summary><c>/metrics</c>: the router's instruments in Prometheus' text format, and a real Prometheus scraping them.</summary>
public sealed partial class MetricsTests(ITestOutputHelper output)
{
    [GeneratedRegex(@"listening on http://127\.0\.0\.1:(\d+)/rpc")]
    private static partial Regex HttpLine();

    [Fact]
    public async Task Metrics_TextFormat_CountsTheRoutedCallsWithTypeHelpAndUnits()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddMethod("echo", (Func<int, int>)(x => x));
        await provider.RegisterAsync("echoer").Within();
        await using var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        for (var i = 0; i < 7; i++)
        {
            Assert.Equal(i, await caller.CallAsync<int>("echo", new object[] { i }).Within());
        }

        using var http = new HttpClient { Timeout = Bounded.Timeout };
        using var response = await http.GetAsync(new Uri($"http://127.0.0.1:{router.HttpPort}/metrics")).Within();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/plain; version=0.0.4; charset=utf-8", response.Content.Headers.ContentType!.ToString());
        var text = await response.Content.ReadAsStringAsync().Within();
        output.WriteLine(text);

        var lines = text.Split('\n');
        Assert.Contains("# TYPE jsonrpc_router_calls_routed_total counter", lines);
        Assert.Contains("# HELP jsonrpc_router_calls_routed_total Calls forwarded to a provider.", lines);
        Assert.Contains("jsonrpc_router_calls_routed_total 7", lines);
        Assert.Contains("# TYPE jsonrpc_router_connections gauge", lines);
        Assert.Contains("jsonrpc_router_connections 2", lines);
        Assert.Contains("# TYPE jsonrpc_router_bytes_received_bytes_total counter", lines);
        Assert.Contains("# TYPE jsonrpc_router_uptime_seconds gauge", lines);
        Assert.Equal('\n', text[^1]);

        // Every line is a comment or `name{labels} value` with a value that parses.
        foreach (var line in lines.Where(l => l.Length > 0 && l[0] != '#'))
        {
            var match = SampleLine().Match(line);
            Assert.True(match.Success, line);
            Assert.True(double.TryParse(match.Groups[1].Value, NumberStyles.Float, CultureInfo.InvariantCulture, out _) || match.Groups[1].Value is "+Inf" or "-Inf" or "NaN", line);
        }
    }

    [Fact]
    public async Task Metrics_TwoRoutersInOneProcess_EachServesItsOwnCounters()
    {
        await using var first = await RouterHost.StartAsync(http: true);
        await using var second = await RouterHost.StartAsync(http: true);
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", first.Port).Within();
        provider.AddMethod("echo", (Func<int, int>)(x => x));
        await provider.RegisterAsync("echoer").Within();
        await using var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", first.Port).Within();
        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(i, await caller.CallAsync<int>("echo", new object[] { i }).Within());
        }

        using var http = new HttpClient { Timeout = Bounded.Timeout };
        var one = (await http.GetStringAsync(new Uri($"http://127.0.0.1:{first.HttpPort}/metrics")).Within()).Split('\n');
        var two = (await http.GetStringAsync(new Uri($"http://127.0.0.1:{second.HttpPort}/metrics")).Within()).Split('\n');
        Assert.Contains("jsonrpc_router_calls_routed_total 3", one);
        Assert.Contains("jsonrpc_router_calls_routed_total 0", two);
        Assert.Single(one, l => l.StartsWith("# TYPE jsonrpc_router_calls_routed_total ", StringComparison.Ordinal));
    }

    [GeneratedRegex("""^[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (\S+)$""")]
    private static partial Regex SampleLine();

    [PrometheusFact]
    public async Task Prometheus_ScrapesTheStandaloneRouterUnderLoad_QueryReturnsTheRoutedCallCount()
    {
        await using var router = await RouterProcess.StartListeningAsync(["--http_port", "0"], TimeSpan.FromSeconds(60));
        var httpPort = int.Parse((await router.WaitForLineAsync(HttpLine(), TimeSpan.FromSeconds(30))).Groups[1].Value, CultureInfo.InvariantCulture);
        await using var prometheus = await PrometheusServer.StartAsync("jsonrpc-router", "/metrics", $"127.0.0.1:{httpPort}");

        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddMethod("echo", (Func<int, int>)(x => x));
        await provider.RegisterAsync("echoer").Within();

        // Callers run until Prometheus has scraped the router mid-load (a count above zero), then stop; every call they
        // made was answered, so the count they made is the count the router must report.
        using var stop = new CancellationTokenSource();
        long made = 0;
        var callers = Enumerable.Range(0, 4).Select(_ => Task.Run(async () =>
        {
            await using var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
            var i = 0;
            while (!stop.IsCancellationRequested)
            {
                Assert.Equal(i, await caller.CallAsync<int>("echo", new object[] { i }).Within());
                Interlocked.Increment(ref made);
                i++;
            }
        })).ToArray();

        double midLoad = 0;
        try
        {
            await Eventually.TrueAsync(async ValueTask<bool> () =>
            {
                var samples = await prometheus.QueryAsync("""jsonrpc_router_calls_routed_total{job="jsonrpc-router"}""");
                midLoad = samples.Count == 1 ? samples[0].Value : 0;
                return midLoad > 0;
            }, "Prometheus saw routed calls while the load ran", TimeSpan.FromSeconds(60));
        }
        finally
        {
            await stop.CancelAsync();
            await Task.WhenAll(callers).WaitAsync(TimeSpan.FromSeconds(60));
        }

        var total = Interlocked.Read(ref made);
        output.WriteLine($"{total} calls made; Prometheus saw {midLoad} mid-load");
        Assert.True(total > 0);
        Assert.True(midLoad <= total, $"{midLoad} seen mid-load, {total} made");

        double final = -1;
        await Eventually.TrueAsync(async ValueTask<bool> () =>
        {
            var samples = await prometheus.QueryAsync("""sum(jsonrpc_router_calls_routed_total{job="jsonrpc-router"})""");
            final = samples.Count == 1 ? samples[0].Value : -1;
            return final == total;
        }, $"Prometheus reports the {total} routed calls made", TimeSpan.FromSeconds(60));

        var up = await prometheus.QueryAsync("""up{job="jsonrpc-router"}""");
        Assert.Equal(1, Assert.Single(up).Value);
        Assert.Equal($"127.0.0.1:{httpPort}", up[0].Labels["instance"]);
    }
}
