using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// The permission matrix on a two-node cluster for clients of node 1's HTTP endpoint: over WebSocket (a bearer header at
/// the upgrade) and over POST (a bearer header per request), with the providers and subscribers on node 0. Node 1 checks
/// its own web clients; what it refuses never reaches node 0.
/// </summary>
public sealed class SecurityClusterWebTests(ITestOutputHelper output)
{
    private static Uri WebSocketUri(ClusterNodes cluster) => cluster[1].WebSocketUri;

    /// <summary>
    /// Two nodes under <see cref="Teams"/>; on node 0 beta provides beta.echo and beta.secret and subscribes to
    /// alpha.events.tick, ops subscribes to both teams' ticks; node 1 knows all of it before the test goes on.
    /// </summary>
    private static async Task<TeamsOnNode0> StartAsync(ITestOutputHelper output)
    {
        var cluster = await ClusterNodes.StartAsync(2, output, router: o => o.Security = Teams(), http: true);
        try
        {
            var beta = await cluster[0].ConnectAsAsync("beta-token", "beta", "beta.1");
            await beta.ProvideAsync("beta.echo");
            await beta.ProvideAsync("beta.secret");
            await beta.SubscribeAsync("alpha.events.tick");
            var ops = await cluster[0].ConnectAsAsync("ops-token", "ops", "ops.1");
            await ops.SubscribeAsync("beta.events.tick");
            await ops.SubscribeAsync("alpha.events.tick");
            await cluster.KnowsMethodAsync(1, "beta.echo");
            await cluster.KnowsMethodAsync(1, "beta.secret");
            await KnowsRemoteSubscriberAsync(cluster, 1, "alpha.events.tick");
            await KnowsRemoteSubscriberAsync(cluster, 1, "beta.events.tick");
            return new TeamsOnNode0(cluster, beta, ops);
        }
        catch
        {
            await cluster.DisposeAsync();
            throw;
        }
    }

    /// <summary>Waits until <paramref name="node"/> knows that the other node has a subscriber of <paramref name="event"/>.</summary>
    private sealed record TeamsOnNode0(ClusterNodes Cluster, LineClient Beta, LineClient Ops) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await Beta.DisposeAsync();
            await Ops.DisposeAsync();
            await Cluster.DisposeAsync();
        }
    }

    private static Task KnowsRemoteSubscriberAsync(ClusterNodes cluster, int node, string @event)
        => Eventually.TrueAsync(() => cluster[node].Router.Routes.TryGetValue(Encoding.UTF8.GetBytes(@event), out var route)
            && Array.Exists(route.Subscribers, static s => s.IsPeer), $"node {node} knows a subscriber of {@event} on the other node");

    private static string Method(JsonElement message) => message.GetProperty("method").GetString()!;

    [NatsTheory]
    [InlineData("provide")]
    [InlineData("call")]
    [InlineData("publish")]
    [InlineData("subscribe")]
    [InlineData("client_name")]
    public async Task WebSocketOnOtherNode_BearerToken_EachPermissionAllowedAndDenied(string kind)
    {
        await using var nodes = await StartAsync(output);
        var (cluster, beta, ops) = nodes;
        await using var alpha = await WsClient.ConnectAsync(WebSocketUri(cluster), bearer: "alpha-token");
        if (kind != "client_name")
        {
            Answer.IsResult(await alpha.CallAsync(1, "register_client", """{"name":"alpha.1"}"""), "true");
        }

        switch (kind)
        {
            case "provide":
                // The refused registration is never announced: once node 0 knows the allowed one (sent after it), it
                // still does not route the refused one.
                IsDenied(await alpha.CallAsync(2, "register_method", """{"method":"beta.charge"}"""), "provide", "method", "beta.charge", "alpha");
                Answer.IsResult(await alpha.CallAsync(3, "register_method", """{"method":"alpha.charge"}"""), "true");
                await cluster.KnowsMethodAsync(0, "alpha.charge");
                Answer.IsError(await ops.CallAsync("beta.charge", "[0]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);
                break;
            case "call":
                IsDenied(await alpha.CallAsync(2, "beta.secret", "[2]"), "call", "method", "beta.secret", "alpha");
                await alpha.SendAsync(WsClient.Request(3, "beta.echo", "[3]"));
                Assert.Equal("beta.echo", Method(await beta.ServeOneAsync("3"))); // the refused call never reached node 0
                Answer.IsResult(await alpha.ReceiveJsonAsync(), "3");
                break;
            case "publish":
                // ops on node 0 subscribes to both: its first event is the allowed one.
                await alpha.SendAsync(LineClient.Notification("beta.events.tick", "[1]"));
                await alpha.SendAsync(LineClient.Notification("alpha.events.tick", "[2]"));
                Assert.Equal("alpha.events.tick", Method(await ops.ReadAsync()));
                Assert.Equal("alpha.events.tick", Method(await beta.ReadAsync()));
                Assert.Equal(1, Refusals((await alpha.CallAsync(4, "get_server_stats")).GetProperty("result"), "publish"));
                break;
            case "subscribe":
                IsDenied(await alpha.CallAsync(2, "subscribe", """{"event":"alpha.events.tick"}"""), "subscribe", "event", "alpha.events.tick", "alpha");
                Answer.IsResult(await alpha.CallAsync(3, "subscribe", """{"event":"beta.events.tick"}"""), "true");
                await KnowsRemoteSubscriberAsync(cluster, 0, "beta.events.tick");
                // ops may publish anything: alpha's first event is the one it may subscribe to.
                await ops.SendAsync(LineClient.Notification("alpha.events.tick", "[1]"));
                await ops.SendAsync(LineClient.Notification("beta.events.tick", "[2]"));
                Assert.Equal("beta.events.tick", Method(await alpha.ReceiveJsonAsync()));
                break;
            default:
                IsDenied(await alpha.CallAsync(2, "register_client", """{"name":"beta.2"}"""), "client_name", "name", "beta.2", "alpha");
                Answer.IsResult(await alpha.CallAsync(3, "register_client", """{"name":"alpha.2"}"""), "true");

                // The refused name stays free for its owner, on the other node too.
                await (await cluster[0].ConnectAsAsync("beta-token", "beta", "beta.2")).DisposeAsync();

                break;
        }

        Assert.Equal(WebSocketState.Open, alpha.Socket.State);
    }

    [NatsFact]
    public async Task PostOnOtherNode_BearerToken_BatchOfEveryKindEachAnsweredOnItsOwn()
    {
        await using var nodes = await StartAsync(output);
        var (cluster, beta, ops) = nodes;
        var serving = beta.ServeOneAsync("8");

        using var response = await WebPost.SendAsync(cluster[1].RpcUri, "[" + string.Join(",",
            WsClient.Request(1, "register_client", """{"name":"beta.9"}"""),
            WsClient.Request(2, "register_client", """{"name":"alpha.9"}"""),
            WsClient.Request(3, "register_method", """{"method":"beta.x"}"""),
            WsClient.Request(4, "register_method", """{"method":"alpha.x"}"""),
            WsClient.Request(5, "subscribe", """{"event":"alpha.events.tick"}"""),
            WsClient.Request(6, "subscribe", """{"event":"beta.events.tick"}"""),
            WsClient.Request(7, "beta.secret", "[7]"),
            WsClient.Request(8, "beta.echo", "[8]"),
            LineClient.Notification("beta.events.tick", "[9]")) + "]", "alpha-token");

        var batch = await WebPost.BodyAsync(response);
        Assert.Equal("beta.echo", Method(await serving.Within())); // beta's first request: the refused call never reached it
        Assert.Equal(8, batch.GetArrayLength());
        IsDenied(ById(batch, 1), "client_name", "name", "beta.9", "alpha");
        Answer.IsResult(ById(batch, 2), "true");
        IsDenied(ById(batch, 3), "provide", "method", "beta.x", "alpha");
        Answer.IsResult(ById(batch, 4), "true");
        IsDenied(ById(batch, 5), "subscribe", "event", "alpha.events.tick", "alpha");
        Answer.IsResult(ById(batch, 6), "true");
        IsDenied(ById(batch, 7), "call", "method", "beta.secret", "alpha");
        Answer.IsResult(ById(batch, 8), "8");

        // The refused publication reached no one on node 0: the first event ops gets is the allowed one posted after it.
        using (var allowed = await WebPost.SendAsync(cluster[1].RpcUri, LineClient.Notification("alpha.events.tick", "[10]"), "alpha-token"))
        {
            Assert.Equal(System.Net.HttpStatusCode.NoContent, allowed.StatusCode);
        }

        Assert.Equal("alpha.events.tick", Method(await ops.ReadAsync()));
        Assert.Equal("alpha.events.tick", Method(await beta.ReadAsync()));

        // The refused provide was never announced to node 0; counted where refused, on node 1.
        Assert.False(cluster[0].Router.Routes.TryGetValue("beta.x"u8.ToArray(), out var route) && route.Providers.Length > 0);
        using var stats = await WebPost.SendAsync(cluster[1].RpcUri, WsClient.Request(11, "get_server_stats"), "ops-token");
        var refusals = (await WebPost.BodyAsync(stats)).GetProperty("result");
        foreach (var reason in new[] { "client_name", "provide", "subscribe", "call", "publish" })
        {
            Assert.Equal(1, Refusals(refusals, reason));
        }
    }
}
