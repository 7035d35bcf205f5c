using System.Diagnostics;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// A StreamJsonRpc caller and provider with their trace context on (<see cref="ActivityTracingStrategy"/>): one trace
/// caller → router → provider, the router's span between them.
/// </summary>
[Collection(TracingCollection.Name)]
public sealed class TracingThroughRouterTests
{
    public static TheoryData<PeerFraming> Framings => [PeerFraming.NewlineSystemTextJson, PeerFraming.HeaderDelimited];

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task StreamJsonRpcCallerAndProvider_RouterSpanBetweenThem(PeerFraming framing)
    {
        var sourceName = "Test.StreamJsonRpc." + framing;
        using var spans = new SpanRecorder("JsonRpc.Router", sourceName);
        using var source = new ActivitySource(sourceName);
        await using var router = await RouterHost.StartAsync();
        await using var provider = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc =>
        {
            rpc.ActivityTracingStrategy = new ActivityTracingStrategy(source);
            rpc.AddLocalRpcMethod("whoami", new Func<string>(() => $"{Activity.Current!.TraceId}/{Activity.Current.ParentSpanId}"));
        });
        await provider.RegisterAsync("provider", "whoami");
        await using var caller = await StreamJsonRpcPeer.ConnectAsync(router.Port, framing, rpc => rpc.ActivityTracingStrategy = new ActivityTracingStrategy(source));

        ActivityTraceId traceId;
        ActivitySpanId rootSpan;
        string seen;
        using (var root = source.StartActivity("caller root")!)
        {
            traceId = root.TraceId;
            rootSpan = root.SpanId;
            seen = await caller.Rpc.InvokeAsync<string>("whoami").Within();
        }

        var routed = Assert.Single(await spans.WaitForAsync(traceId, "JsonRpc.Router", 1));
        Assert.Equal(rootSpan, routed.ParentSpanId);
        Assert.Equal("whoami", routed.GetTagItem("rpc.method"));
        Assert.Equal("provider", routed.GetTagItem("jsonrpc.router.provider"));
        Assert.Equal($"{traceId}/{routed.SpanId}", seen);

        // The provider's own span (made by StreamJsonRpc from the traceparent it got) is the router span's child.
        var served = Assert.Single(await spans.WaitForAsync(traceId, sourceName, 2), s => s.DisplayName == "whoami");
        Assert.Equal(routed.SpanId, served.ParentSpanId);
    }
}
