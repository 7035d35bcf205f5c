using System.Diagnostics;
using JsonRpc.Client.Tests.Infrastructure;

namespace JsonRpc.Client.Tests;

/// <summary>One trace from a JsonRpcClient caller through the router to a JsonRpcClient provider.</summary>
[Collection(TracingCollection.Name)]
public sealed class TracingTests
{
    private static readonly TestJsonContext Ctx = TestJsonContext.Default;

    [Fact]
    public async Task Call_ThroughRouter_ClientSpanRouterSpanDispatcherSpanAndHandlerSpanFormOneChain()
    {
        using var spans = new SpanRecorder("JsonRpc.Client", "JsonRpc.Router", "JsonRpc.Dispatcher", "Test.Tracing");
        using var test = new ActivitySource("Test.Tracing");
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        ActivityContext seenByHandler = default;
        provider.AddMethod("mul", "a", "b", (int a, int b) =>
        {
            seenByHandler = Activity.Current!.Context;
            using var inner = test.StartActivity("inner work");
            return a * b;
        }, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        await provider.RegisterAsync("calc").Within();
        await using var caller = await router.ConnectAsync();

        ActivityTraceId traceId;
        ActivitySpanId rootSpan;
        using (var root = test.StartActivity("test root")!)
        {
            traceId = root.TraceId;
            rootSpan = root.SpanId;
            Assert.Equal(42, await caller.CallAsync<int, int, int>("mul", 6, 7, Ctx.Int32, Ctx.Int32, Ctx.Int32).Within());
        }

        var client = Assert.Single(await spans.WaitForAsync(traceId, "JsonRpc.Client", 1), s => s.DisplayName == "mul");
        var routed = Assert.Single(await spans.WaitForAsync(traceId, "JsonRpc.Router", 1));
        var served = Assert.Single(await spans.WaitForAsync(traceId, "JsonRpc.Dispatcher", 1));
        var inner = Assert.Single(spans.InTrace(traceId), s => s.DisplayName == "inner work");

        Assert.Equal(rootSpan, client.ParentSpanId);
        Assert.Equal(ActivityKind.Client, client.Kind);
        Assert.Equal(client.SpanId, routed.ParentSpanId);
        Assert.Equal(routed.SpanId, served.ParentSpanId);
        Assert.Equal(ActivityKind.Server, served.Kind);
        Assert.Equal(served.SpanId, seenByHandler.SpanId);
        Assert.Equal(served.SpanId, inner.ParentSpanId);
        Assert.All([client, routed, served], s =>
        {
            Assert.Equal("jsonrpc", s.GetTagItem("rpc.system"));
            Assert.Equal("mul", s.GetTagItem("rpc.method"));
        });
    }

    [Fact]
    public async Task Call_ProviderThrows_EverySpanOnThePathIsMarkedWithTheError()
    {
        using var spans = new SpanRecorder("JsonRpc.Client", "JsonRpc.Router", "JsonRpc.Dispatcher", "Test.Tracing.Errors");
        using var test = new ActivitySource("Test.Tracing.Errors");
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod<int>("boom", () => throw new JsonRpc.Dispatch.JsonRpcMethodException(-32050, "it broke"), Ctx.Int32);
        await provider.RegisterAsync("b").Within();
        await using var caller = await router.ConnectAsync();

        ActivityTraceId traceId;
        using (var root = test.StartActivity("root")!)
        {
            traceId = root.TraceId;
            var error = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync<int>("boom", default(JsonRpc.Protocol.RawJson), Ctx.Int32).Within());
            Assert.Equal(-32050, error.Code);
        }

        foreach (var source in new[] { "JsonRpc.Client", "JsonRpc.Router", "JsonRpc.Dispatcher" })
        {
            var span = Assert.Single(await spans.WaitForAsync(traceId, source, 1), s => s.DisplayName == "boom");
            Assert.Equal(ActivityStatusCode.Error, span.Status);
            Assert.Equal(-32050, span.GetTagItem("rpc.jsonrpc.error_code"));
        }
    }
}
