using System.Diagnostics;
using System.Text.Json;
using JsonRpc.Server;

namespace JsonRpc.Cluster.Tests;

public sealed class ClusterCallTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task Call_ProviderOnOtherNode_AnswersWithCallerIdAndUntouchedParams()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(1, "calc", "add");
        await cluster.KnowsMethodAsync(0, "add");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        const string Params = """{"a":1, "b" : [2.50,"x\u00e9"]}""";
        await caller.SendAsync($$"""{"jsonrpc":"2.0","id":"my-id \"1\"","method":"add","params":{{Params}}}""");
        var request = await provider.ReadAsync();
        Assert.Equal(Params, request.GetProperty("params").GetRawText());
        await provider.SendAsync("""{"jsonrpc":"2.0","id":""" + request.GetProperty("id").GetRawText() + ""","result":{"sum" : 3.50}}""");

        var line = await caller.ReadLineAsync();
        Assert.Contains("\"id\":\"my-id \\\"1\\\"\"", line);
        Assert.Contains("{\"sum\" : 3.50}", line);

        await caller.SendAsync(LineClient.Request(7, "add", "[1,2]"));
        await provider.ServeOneAsync("3");
        var answer = await caller.ReadAsync();
        Assert.Equal(7, answer.GetProperty("id").GetInt32());
        Assert.Equal(3, answer.GetProperty("result").GetInt32());
    }

    [NatsFact]
    public async Task Call_ProvidersOnBothNodes_LocalProviderServesEveryCall()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var remote = await cluster.ConnectRegisteredAsync(1, "remote", "echo");
        await cluster.KnowsMethodAsync(0, "echo");
        await using var local = await cluster.ConnectRegisteredAsync(0, "local", "echo");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        for (var i = 0; i < 20; i++)
        {
            await caller.SendAsync(LineClient.Request(i, "echo", "[1]"));
            await local.ServeOneAsync("1");
            Assert.Equal(i, (await caller.ReadAsync()).GetProperty("id").GetInt32());
        }

        await remote.AssertSilentAsync(TimeSpan.FromMilliseconds(300));
    }

    [NatsFact]
    public async Task Call_MethodOnlyOnOtherNode_NotificationDeliveredOnce()
    {
        await using var cluster = await ClusterNodes.StartAsync(3, output);
        await using var first = await cluster.ConnectRegisteredAsync(1, "worker-1", "work");
        await using var second = await cluster.ConnectRegisteredAsync(2, "worker-2", "work");
        await Eventually.TrueAsync(() => RouteCount(cluster[0].Router, "work") == 2, "node 0 routes work to both nodes");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        await caller.SendAsync(LineClient.Notification("work", """{"job":1}"""));
        // Both read at once; the one that gets it is checked, and the other's read must end empty-handed (its own
        // bounded wait runs out): a duplicate delivered to it would complete that read instead.
        var reads = new[] { first.ReadAsync(TimeSpan.FromSeconds(3)), second.ReadAsync(TimeSpan.FromSeconds(3)) };
        var got = await Task.WhenAny(reads);
        Assert.Equal(1, (await got).GetProperty("params").GetProperty("job").GetInt32());
        var other = reads[0] == got ? reads[1] : reads[0];
        await Assert.ThrowsAsync<TimeoutException>(() => other);
    }

    [NatsFact]
    public async Task Batch_CallsToLocalAndRemoteProviders_OneReplyWithEveryAnswer()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var remote = await cluster.ConnectRegisteredAsync(1, "remote", "far");
        await cluster.KnowsMethodAsync(0, "far");
        await using var local = await cluster.ConnectRegisteredAsync(0, "local", "near");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        await caller.SendAsync($"[{LineClient.Request("a", "far", "[1]")},{LineClient.Request("b", "near", "[2]")}]");
        await Task.WhenAll(remote.ServeOneAsync("\"far\""), local.ServeOneAsync("\"near\""));
        var reply = await caller.ReadAsync();
        Assert.Equal(JsonValueKind.Array, reply.ValueKind);
        var results = reply.EnumerateArray().ToDictionary(e => e.GetProperty("id").GetString()!, e => e.GetProperty("result").GetString());
        Assert.Equal("far", results["a"]);
        Assert.Equal("near", results["b"]);
    }

    [NatsFact]
    public async Task Call_RemoteProviderDisconnectsMidCall_FailsWithProviderDisconnectedAtOnce()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        var provider = await cluster.ConnectRegisteredAsync(1, "flaky", "slow");
        await cluster.KnowsMethodAsync(0, "slow");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        await caller.SendAsync(LineClient.Request(1, "slow"));
        await provider.ReadAsync();
        var watch = Stopwatch.StartNew();
        await provider.DisposeAsync();
        var answer = await caller.ReadAsync();
        Answer.IsError(answer, RouterErrorCodes.ProviderDisconnected);
        Assert.Equal(1, answer.GetProperty("id").GetInt32());
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}");
    }

    [NatsFact]
    public async Task Call_RemoteProviderSlowerThanTimeout_TimesOutOnCallersNode()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, router: o => o.CallTimeout = TimeSpan.FromMilliseconds(800));
        await using var provider = await cluster.ConnectRegisteredAsync(1, "sleepy", "nap");
        await cluster.KnowsMethodAsync(0, "nap");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        await caller.SendAsync(LineClient.Request("t", "nap"));
        await provider.ReadAsync();
        var answer = await caller.ReadAsync();
        Answer.IsError(answer, RouterErrorCodes.CallTimeout);
        Assert.Equal("t", answer.GetProperty("id").GetString());
    }

    [NatsFact]
    public async Task CancelRequest_CallerOnOtherNode_ReachesProviderUnderItsIdAndCallerGetsOneAnswer()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(1, "worker", "work");
        await cluster.KnowsMethodAsync(0, "work");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");
        await using var stranger = await cluster.ConnectRegisteredAsync(0, "stranger");

        await caller.SendAsync(LineClient.Request("job-1", "work", "[1]"));
        var request = await provider.ReadAsync();
        var providerId = request.GetProperty("id").GetRawText();

        // Another client's cancel for the same id changes nothing; the caller's own reaches the provider on the other
        // node, under the id the provider saw.
        await stranger.SendAsync(LineClient.Notification("$/cancelRequest", """{"id":"job-1"}"""));
        await caller.SendAsync(LineClient.Notification("$/cancelRequest", """{"id":"job-1"}"""));
        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(providerId, cancel.GetProperty("params").GetProperty("id").GetRawText());
        await provider.AssertSilentAsync(TimeSpan.FromMilliseconds(300));

        await provider.SendAsync("""{"jsonrpc":"2.0","id":""" + providerId + ""","error":{"code":-32800,"message":"Request cancelled"}}""");
        var answer = await caller.ReadAsync();
        Answer.IsError(answer, -32800);
        Assert.Equal("job-1", answer.GetProperty("id").GetString());
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(300));
    }

    [NatsFact]
    public async Task CallerDisconnects_ProviderOnOtherNodeGetsCancelRequest()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(1, "worker", "work");
        await cluster.KnowsMethodAsync(0, "work");
        var caller = await cluster.ConnectRegisteredAsync(0, "caller");

        await caller.SendAsync(LineClient.Request(5, "work"));
        var providerId = (await provider.ReadAsync()).GetProperty("id").GetRawText();
        await caller.DisposeAsync();

        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(providerId, cancel.GetProperty("params").GetProperty("id").GetRawText());
    }

    internal static int RouteCount(JsonRpcRouter router, string method)
        => router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(method), out var route) ? route.Providers.Length : 0;
}
