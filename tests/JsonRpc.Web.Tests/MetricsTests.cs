using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using JsonRpc.Client;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
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

    [Fact]
    public async Task Metrics_SecurityPolicy_PerIdentitySeriesCarryTheIdentityAndRefusalsTheReason()
    {
        var security = JsonRpc.Testing.Lines.SecurityKit.Teams();
        security.Identities["alpha"].Quota = new JsonRpcQuota { CallsPerSecond = 0.01 }; // one call, then none for 100 s
        await using var router = await RouterHost.StartAsync(o => o.Security = security, http: true);
        await using var beta = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "beta-token");
        Json.IsResult(await beta.CallAsync(1, "register_client", """{"name":"beta.1"}"""), "true");
        Json.IsResult(await beta.CallAsync(2, "register_method", """{"method":"beta.echo"}"""), "true");
        await using var alpha = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "alpha-token");

        // A permission refusal (not charged to the rate), an allowed call, then a rate refusal.
        Json.IsError(await alpha.CallAsync(1, "beta.secret", "[1]"), RouterErrorCodes.PermissionDenied);
        await alpha.SendAsync(WsClient.Request(2, "beta.echo", "[2]"));
        var request = await beta.ReceiveJsonAsync();
        await beta.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":2}""");
        Json.IsResult(await alpha.ReceiveJsonAsync(), "2");
        Json.IsError(await alpha.CallAsync(3, "beta.echo", "[3]"), RouterErrorCodes.QuotaExceeded);

        using var http = new HttpClient { Timeout = Bounded.Timeout };
        var text = await http.GetStringAsync(new Uri($"http://127.0.0.1:{router.HttpPort}/metrics")).Within();
        output.WriteLine(text);
        var lines = text.Split('\n');
        Assert.Contains("""jsonrpc_router_refusals_total{reason="call"} 1""", lines);
        Assert.Contains("""jsonrpc_router_refusals_total{reason="rate"} 1""", lines);
        Assert.Contains("""jsonrpc_router_refusals_total{reason="publish"} 0""", lines);
        Assert.Contains("""jsonrpc_router_identity_calls_total{identity="alpha"} 1""", lines);
        Assert.Contains("""jsonrpc_router_identity_refusals_total{identity="alpha"} 2""", lines);
        Assert.Contains("""jsonrpc_router_identity_rate_limited_total{identity="alpha"} 1""", lines);
        Assert.Contains("""jsonrpc_router_identity_connections{identity="alpha"} 1""", lines);
        Assert.Contains("""jsonrpc_router_identity_refusals_total{identity="beta"} 0""", lines);
        Assert.Contains("""jsonrpc_router_identity_connections{identity="beta"} 1""", lines);
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
