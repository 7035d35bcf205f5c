using System.Diagnostics;

namespace JsonRpc.Cluster.Tests;

/// <summary>A call across two nodes is one trace: caller → node A's span → node B's span → provider.</summary>
[Collection(TracingCollection.Name)]
public sealed class ClusterTracingTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task CallAcrossNodes_EachNodeSpansItsHop_ProviderSeesTheLastNodesSpan()
    {
        using var spans = new SpanRecorder("JsonRpc.Router");
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(1, "far", "traced.m");
        await cluster.KnowsMethodAsync(0, "traced.m");
        await using var caller = await cluster.ConnectAsync(0);

        var traceId = ActivityTraceId.CreateRandom();
        var callerSpan = ActivitySpanId.CreateRandom();
        await caller.SendAsync($$"""{"jsonrpc":"2.0","id":1,"traceparent":"00-{{traceId}}-{{callerSpan}}-01","method":"traced.m","params":[1]}""");
        var forwarded = await provider.ReadAsync();
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{forwarded.GetProperty("id").GetRawText()}},"result":"ok"}""");
        Answer.IsResult(await caller.ReadAsync(), "\"ok\"");

        var hops = await spans.WaitForAsync(traceId, "JsonRpc.Router", 2);
        var nodeA = Assert.Single(hops, s => (string?)s.GetTagItem("jsonrpc.router.node") == "n0");
        var nodeB = Assert.Single(hops, s => (string?)s.GetTagItem("jsonrpc.router.node") == "n1");
        Assert.Equal(callerSpan, nodeA.ParentSpanId);
        Assert.Equal(true, nodeA.GetTagItem("jsonrpc.router.provider.is_node"));
        Assert.Equal(nodeA.SpanId, nodeB.ParentSpanId);
        Assert.Equal("far", nodeB.GetTagItem("jsonrpc.router.provider"));
        Assert.Equal($"00-{traceId}-{nodeB.SpanId}-01", forwarded.GetProperty("traceparent").GetString());
    }
}
