using System.Collections.Concurrent;
using System.Diagnostics;
using JsonRpc.Client;
using JsonRpc.Web.Tests.Infrastructure;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace JsonRpc.Web.Tests;

/// <summary><c>--otlp_endpoint</c>: the standalone router sends its spans and metrics over OTLP/HTTP to a receiver here.</summary>
public sealed class OtlpExportTests(ITestOutputHelper output)
{
    [Fact]
    public async Task OtlpEndpoint_RouterSendsItsSpanOfTheCallerTrace_AndItsMetrics()
    {
        await using var receiver = await OtlpReceiver.StartAsync();
        await using var router = await RouterProcess.StartListeningAsync(
            ["--otlp_endpoint", receiver.BaseUri.ToString(), "--otlp_protocol", "http/protobuf", "--otlp_interval_ms", "500"], TimeSpan.FromSeconds(60));

        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddMethod("otlp.echo", (Func<string, string>)(s => s));
        await provider.RegisterAsync("echoer").Within();
        await using var caller = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();

        // No listener here: the client sends the current activity's context as it is, sampled (flags 01), so that the
        // router's SDK (parent-based sampling, its default) records its span.
        using var root = new Activity("test root").SetIdFormat(ActivityIdFormat.W3C).Start();
        root.ActivityTraceFlags = ActivityTraceFlags.Recorded;
        Assert.Equal("hi", await caller.CallAsync<string>("otlp.echo", new object[] { "hi" }).Within());
        root.Stop();
        var traceId = Convert.FromHexString(root.TraceId.ToHexString());

        // OTLP is protobuf: strings are there as UTF-8, the trace id as its 16 bytes.
        await Eventually.TrueAsync(() => receiver.Traces.Any(body => Contains(body, traceId) && Contains(body, "otlp.echo"u8)), "the router's span reached the receiver");
        var traces = receiver.Traces.First(body => Contains(body, traceId));
        Assert.True(Contains(traces, "jsonrpc-router"u8), "service.name");
        Assert.True(Contains(traces, "rpc.system"u8) && Contains(traces, "jsonrpc"u8));
        Assert.True(Contains(traces, Convert.FromHexString(root.SpanId.ToHexString())), "the caller's span is the parent");

        await Eventually.TrueAsync(() => receiver.Metrics.Any(body => Contains(body, "jsonrpc.router.calls.routed"u8)), "the router's metrics reached the receiver");
        output.WriteLine($"{receiver.Traces.Count} trace and {receiver.Metrics.Count} metric exports received");
    }

    [Theory]
    [InlineData("ftp://x", "otlp_endpoint")]
    [InlineData("http://127.0.0.1:4317", "otlp_protocol", "--otlp_protocol", "carrier-pigeon")]
    public async Task OtlpOptions_BadValue_ExitsWithOneLineNamingIt(string endpoint, string named, params string[] more)
    {
        await using var router = RouterProcess.Start(["--port", "0", "--otlp_endpoint", endpoint, .. more]);
        Assert.NotEqual(0, await router.WaitForExitAsync(TimeSpan.FromSeconds(60)));
        Assert.Contains(named, router.Error);
        Assert.Single(router.Error.Trim().Split('\n'));
    }

    private static bool Contains(byte[] body, ReadOnlySpan<byte> part) => body.AsSpan().IndexOf(part) >= 0;

    /// <summary>An OTLP/HTTP receiver: keeps each export request's body (POST /v1/traces, /v1/metrics), answers 200.</summary>
    private sealed class OtlpReceiver : IAsyncDisposable
    {
        private readonly WebApplication _app;

        private OtlpReceiver(WebApplication app, Uri baseUri) => (_app, BaseUri) = (app, baseUri);

        public Uri BaseUri { get; }

        public ConcurrentQueue<byte[]> TraceBodies { get; } = new();

        public ConcurrentQueue<byte[]> MetricBodies { get; } = new();

        public IReadOnlyCollection<byte[]> Traces => TraceBodies;

        public IReadOnlyCollection<byte[]> Metrics => MetricBodies;

        public static async Task<OtlpReceiver> StartAsync()
        {
            OtlpReceiver? self = null;
            var (app, baseUri) = await LoopbackWebApp.StartAsync(web =>
            {
                web.MapPost("/v1/traces", (RequestDelegate)(context => KeepAsync(context, self!.TraceBodies)));
                web.MapPost("/v1/metrics", (RequestDelegate)(context => KeepAsync(context, self!.MetricBodies)));
            });
            self = new OtlpReceiver(app, baseUri);
            return self;
        }

        private static async Task KeepAsync(HttpContext context, ConcurrentQueue<byte[]> into)
        {
            using var body = new MemoryStream();
            await context.Request.Body.CopyToAsync(body);
            into.Enqueue(body.ToArray());
            context.Response.ContentType = "application/x-protobuf";
            context.Response.StatusCode = 200;
        }

        public async ValueTask DisposeAsync()
        {
            await _app.StopAsync().WaitAsync(TimeSpan.FromSeconds(15));
            await _app.DisposeAsync();
        }
    }
}
