using System.Diagnostics;
using System.Text.Json;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The router's spans (JsonRpc.Router): one per routed call, notification and event, a child of the caller's W3C trace
/// context wherever the caller put it, and the message forwarded with a traceparent naming the router's span.
/// </summary>
[Collection(TracingCollection.Name)]
public sealed class TracingTests
{
    private const string Source = "JsonRpc.Router";
    private static readonly ActivityTraceId TraceId = ActivityTraceId.CreateFromString("4bf92f3577b34da6a3ce929d0e0e4736");
    private static readonly ActivitySpanId CallerSpan = ActivitySpanId.CreateFromString("00f067aa0ba902b7");
    private const string CallerTraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    [Fact]
    public async Task Call_TopLevelTraceParent_RouterSpanIsItsChild_ProviderGetsTheRouterSpanAsParent()
    {
        using var spans = new SpanRecorder(Source);
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "math.add");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync($$"""{"jsonrpc":"2.0","id":"c1","traceparent":"{{CallerTraceParent}}","tracestate":"vendor=1","method":"math.add","params":[1,2]}""");
        var forwarded = await provider.ReadAsync();
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{forwarded.GetProperty("id").GetRawText()}},"result":3}""");
        Answer.IsResult(await caller.ReadAsync(), "3");

        var span = Assert.Single(await spans.WaitForAsync(TraceId, Source, 1));
        Assert.Equal(CallerSpan, span.ParentSpanId);
        Assert.Equal(ActivityKind.Server, span.Kind);
        Assert.Equal("math.add", span.DisplayName);
        Assert.Equal("jsonrpc", span.GetTagItem("rpc.system"));
        Assert.Equal("math.add", span.GetTagItem("rpc.method"));
        Assert.Equal("\"c1\"", span.GetTagItem("rpc.jsonrpc.request_id"));
        Assert.Equal("p", span.GetTagItem("jsonrpc.router.provider"));
        Assert.Equal(ActivityStatusCode.Unset, span.Status);

        // The provider sees the router's span as its parent, the trace state unchanged, in the same place.
        Assert.Equal($"00-{TraceId}-{span.SpanId}-01", forwarded.GetProperty("traceparent").GetString());
        Assert.Equal("vendor=1", forwarded.GetProperty("tracestate").GetString());
        Assert.Equal("[1,2]", forwarded.GetProperty("params").GetRawText());
        Assert.Equal("math.add", forwarded.GetProperty("method").GetString());
    }

    [Fact]
    public async Task Call_McpMetaTraceParent_RewrittenInParamsMeta_ErrorAnswerMarksTheSpan()
    {
        using var spans = new SpanRecorder(Source);
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "tools/call");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync($$$$"""{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1,"traceparent":"{{{{CallerTraceParent}}}}","tracestate":"a=b"}}}""");
        var forwarded = await provider.ReadAsync();
        await provider.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{forwarded.GetProperty("id").GetRawText()}}},"error":{"code":-32001,"message":"no such tool"}}""");
        Answer.IsError(await caller.ReadAsync(), -32001);

        var span = Assert.Single(await spans.WaitForAsync(TraceId, Source, 1));
        Assert.Equal(CallerSpan, span.ParentSpanId);
        Assert.Equal(ActivityStatusCode.Error, span.Status);
        Assert.Equal(-32001, span.GetTagItem("rpc.jsonrpc.error_code"));
        Assert.Equal("no such tool", span.GetTagItem("rpc.jsonrpc.error_message"));

        var meta = forwarded.GetProperty("params").GetProperty("_meta");
        Assert.Equal($"00-{TraceId}-{span.SpanId}-01", meta.GetProperty("traceparent").GetString());
        Assert.Equal("a=b", meta.GetProperty("tracestate").GetString());
        Assert.Equal(1, meta.GetProperty("progressToken").GetInt32());
        Assert.False(forwarded.TryGetProperty("traceparent", out _), "no second traceparent at the top level");
    }

    [Fact]
    public async Task Call_NoTraceContext_RouterStartsATrace_AndForwardsItsTraceParent_TimeoutFailsTheSpan()
    {
        using var spans = new SpanRecorder(Source);
        await using var server = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300));
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"slow"}""");
        var forwarded = await provider.ReadAsync();
        var traceParent = forwarded.GetProperty("traceparent").GetString()!;
        Assert.True(ActivityContext.TryParse(traceParent, null, out var context), traceParent);
        Answer.IsError(await caller.ReadAsync(), RouterErrorCodes.CallTimeout);

        var span = Assert.Single(await spans.WaitForAsync(context.TraceId, Source, 1));
        Assert.Equal(context.SpanId, span.SpanId);
        Assert.Equal(default, span.ParentSpanId);
        Assert.Equal(ActivityStatusCode.Error, span.Status);
        Assert.Equal(RouterErrorCodes.CallTimeout, span.GetTagItem("rpc.jsonrpc.error_code"));
    }

    [Fact]
    public async Task NotificationAndEvent_OneSpanEach_EveryRecipientGetsItsTraceParent()
    {
        using var spans = new SpanRecorder(Source);
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "log");
        await using var subscriber = await server.ConnectRegisteredAsync("s");
        await subscriber.SubscribeAsync("news");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync($$"""{"jsonrpc":"2.0","traceparent":"{{CallerTraceParent}}","method":"log","params":["x"]}""");
        var logged = await provider.ReadAsync();
        await caller.SendAsync($$$"""{"jsonrpc":"2.0","method":"news","params":{"_meta":{"traceparent":"{{{CallerTraceParent}}}"},"headline":"h"}}""");
        var news = await subscriber.ReadAsync();

        var routed = await spans.WaitForAsync(TraceId, Source, 2);
        var log = Assert.Single(routed, s => s.DisplayName == "log");
        var publish = Assert.Single(routed, s => s.DisplayName == "news");
        Assert.Equal(ActivityKind.Server, log.Kind);
        Assert.Equal(ActivityKind.Producer, publish.Kind);
        Assert.All(routed, s => Assert.Equal(CallerSpan, s.ParentSpanId));
        Assert.Equal($"00-{TraceId}-{log.SpanId}-01", logged.GetProperty("traceparent").GetString());
        Assert.Equal($"00-{TraceId}-{publish.SpanId}-01", news.GetProperty("params").GetProperty("_meta").GetProperty("traceparent").GetString());
        Assert.Equal("h", news.GetProperty("params").GetProperty("headline").GetString());
    }

    [Fact]
    public async Task BadTraceParent_IgnoredAsParent_CallStillRouted()
    {
        using var spans = new SpanRecorder(Source);
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "m");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync("""{"jsonrpc":"2.0","id":1,"traceparent":"not-a-trace","method":"m"}""");
        var forwarded = await provider.ReadAsync();
        Assert.True(ActivityContext.TryParse(forwarded.GetProperty("traceparent").GetString()!, null, out var context));
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{forwarded.GetProperty("id").GetRawText()}},"result":true}""");
        Answer.IsResult(await caller.ReadAsync(), "true");
        Assert.Equal(default, Assert.Single(await spans.WaitForAsync(context.TraceId, Source, 1)).ParentSpanId);
    }

    [Fact]
    public async Task NobodyListening_MessageForwardedUntouched()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "untraced.m");
        await using var caller = await server.ConnectAsync();

        // Only this class listens in this test assembly, and its tests run one at a time.
        Assert.False(HasRouterListener());
        await caller.SendAsync("""{"jsonrpc":"2.0","method":"untraced.m","params":[1]}""");
        var forwarded = await provider.ReadAsync();
        Assert.Equal("""{"jsonrpc":"2.0","method":"untraced.m","params":[1]}""", forwarded.GetRawText());
    }

    private static bool HasRouterListener()
    {
        using var probe = new ActivitySource(Source);
        return probe.HasListeners();
    }
}
