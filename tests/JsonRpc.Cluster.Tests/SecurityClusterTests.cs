using System.Text;
using JsonRpc.Server;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// Identities and permissions on a two-node cluster: every node holds the same policy and checks its own clients; what
/// one refuses never reaches the other node.
/// </summary>
public sealed class SecurityClusterTests(ITestOutputHelper output)
{
    private static Task<ClusterNodes> StartAsync(ITestOutputHelper output, Func<JsonRpcSecurityOptions>? security = null)
        => ClusterNodes.StartAsync(2, output, router: o => o.Security = (security ?? Teams)());

    private static async Task<LineClient> ConnectAsAsync(ClusterNodes cluster, int node, string token, string identity, string? name)
    {
        var client = await cluster.ConnectAsync(node);
        Answer.IsResult(await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}"""), $$"""{"identity":"{{identity}}","roles":[]}""");
        if (name is not null)
        {
            await client.RegisterAsync(name);
        }

        return client;
    }

    private static Task KnowsSubscriberAsync(ClusterNodes cluster, int node, string @event)
        => Eventually.TrueAsync(() => cluster[node].Router.Routes.TryGetValue(Encoding.UTF8.GetBytes(@event), out var route) && route.Subscribers.Length > 0,
            $"node {node} knows a subscriber of {@event}");

    [NatsFact]
    public async Task Cluster_PermissionMatrix_CheckedAtTheCallersNode()
    {
        await using var cluster = await StartAsync(output);
        await using var beta = await ConnectAsAsync(cluster, 0, "beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await beta.ProvideAsync("beta.secret");
        await beta.SubscribeAsync("alpha.events.tick");
        await using var ops = await ConnectAsAsync(cluster, 0, "ops-token", "ops", "ops.1");
        await ops.SubscribeAsync("beta.events.tick");
        await ops.SubscribeAsync("alpha.events.tick");
        await cluster.KnowsMethodAsync(1, "beta.echo");
        await cluster.KnowsMethodAsync(1, "beta.secret");
        await KnowsSubscriberAsync(cluster, 1, "beta.events.tick");
        await KnowsSubscriberAsync(cluster, 1, "alpha.events.tick");
        await using var alpha = await ConnectAsAsync(cluster, 1, "alpha-token", "alpha", name: null);

        // client_name
        IsDenied(await alpha.CallAsync("register_client", """{"name":"beta.9"}"""), "client_name", "name", "beta.9", "alpha");
        Answer.IsResult(await alpha.CallAsync("register_client", """{"name":"alpha.1"}"""), "true");

        // provide
        IsDenied(await alpha.CallAsync("register_method", """{"method":"beta.x"}"""), "provide", "method", "beta.x", "alpha");
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.x"}"""), "true");
        await cluster.KnowsMethodAsync(0, "alpha.x");
        Assert.False(cluster[0].Router.Routes.TryGetValue("beta.x"u8.ToArray(), out _));

        // subscribe
        IsDenied(await alpha.CallAsync("subscribe", """{"event":"alpha.events.tick"}"""), "subscribe", "event", "alpha.events.tick", "alpha");
        Answer.IsResult(await alpha.CallAsync("subscribe", """{"event":"beta.events.tick"}"""), "true");

        // call: the refused one never leaves node 1; the allowed one reaches beta on node 0.
        IsDenied(await alpha.CallAsync("beta.secret", "[1]"), "call", "method", "beta.secret", "alpha");
        await alpha.SendAsync(LineClient.Request(2, "beta.echo", "[2]"));
        Assert.Equal("beta.echo", (await beta.ServeOneAsync("2")).GetProperty("method").GetString());
        Answer.IsResult(await alpha.ReadAsync(), "2");

        // publish: ops on node 0 gets the allowed event only (its first event), beta gets it too.
        await alpha.SendAsync(LineClient.Notification("beta.events.tick", "[3]"));
        await alpha.SendAsync(LineClient.Notification("alpha.events.tick", "[4]"));
        Assert.Equal("alpha.events.tick", (await ops.ReadAsync()).GetProperty("method").GetString());
        Assert.Equal("alpha.events.tick", (await beta.ReadAsync()).GetProperty("method").GetString());

        // Counted where refused: node 1.
        var stats = await alpha.StatsAsync();
        foreach (var reason in new[] { "client_name", "provide", "subscribe", "call", "publish" })
        {
            Assert.Equal(1, Refusals(stats, reason));
        }

        Assert.Equal(0, Refusals(await ops.StatsAsync(), "call"));
        Answer.IsResult(await alpha.CallAsync("keepAlive"), "true");
    }

    [NatsFact]
    public async Task Cluster_ListsAndDiscoverForNonMonitorOnOtherNode_SeeOnlyWhatItMayCall()
    {
        await using var cluster = await StartAsync(output);
        await using var beta = await ConnectAsAsync(cluster, 0, "beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await beta.ProvideAsync("beta.secret");
        await using var opsProvider = await ConnectAsAsync(cluster, 0, "ops-token", "ops", "ops.restarter");
        await opsProvider.ProvideAsync("ops.restart");
        await using var betaSecret = await ConnectAsAsync(cluster, 1, "beta-token", "beta", "beta.2"); // on alpha's node, nothing alpha may call
        await betaSecret.ProvideAsync("beta.secret");
        await cluster.KnowsMethodAsync(1, "beta.echo");
        await cluster.KnowsMethodAsync(1, "ops.restart");
        await using var alpha = await ConnectAsAsync(cluster, 1, "alpha-token", "alpha", "alpha.1");
        await alpha.ProvideAsync("alpha.calc");
        await using var ops = await ConnectAsAsync(cluster, 1, "ops-token", "ops", "ops.1");

        // A monitor on node 1 sees every method in the cluster, with each provider's node.
        var all = (await ops.CallAsync("list_methods")).GetProperty("result");
        Assert.Equal(["alpha.calc", "beta.echo", "beta.secret", "ops.restart"], MethodNames(all));
        var secret = all.EnumerateArray().Single(static m => m.GetProperty("method").GetString() == "beta.secret");
        Assert.Equal(["beta.2", "beta.1"], secret.GetProperty("providers").EnumerateArray().Select(static p => p.GetString()));
        Assert.Equal(["n1", "n0"], secret.GetProperty("nodes").EnumerateArray().Select(static p => p.GetString()));

        // alpha sees only what it may call, whichever node provides it.
        var methods = (await alpha.CallAsync("list_methods")).GetProperty("result");
        Assert.Equal(["alpha.calc", "beta.echo"], MethodNames(methods));
        var echo = methods.EnumerateArray().Single(static m => m.GetProperty("method").GetString() == "beta.echo");
        Assert.Equal(["beta.1"], echo.GetProperty("providers").EnumerateArray().Select(static p => p.GetString()));
        Assert.Equal(["n0"], echo.GetProperty("nodes").EnumerateArray().Select(static p => p.GetString()));

        // list_clients lists this node's clients: alpha itself, not beta.2 (nothing alpha may call) nor ops.1.
        Assert.Equal(["alpha.1"], ClientNames((await alpha.CallAsync("list_clients")).GetProperty("result")));
        Assert.Equal(["alpha.1", "beta.2", "ops.1"], ClientNames((await ops.CallAsync("list_clients")).GetProperty("result")));

        // rpc.discover: the router's own methods, and of the routed ones only those alpha may call, beta.echo from node 0.
        var document = (await alpha.CallAsync("rpc.discover")).GetProperty("result").GetProperty("methods");
        var routed = document.EnumerateArray().Where(static m => m.TryGetProperty("x-providers", out _)).ToArray();
        Assert.Equal(["alpha.calc", "beta.echo"], routed.Select(static m => m.GetProperty("name").GetString()));
        var provider = Assert.Single(routed[1].GetProperty("x-providers").EnumerateArray());
        Assert.Equal("beta.1", provider.GetProperty("client").GetString());
        Assert.Equal("n0", provider.GetProperty("node").GetString());
        Assert.Contains(document.EnumerateArray(), static m => m.GetProperty("name").GetString() == "list_methods");
        var opsDocument = (await ops.CallAsync("rpc.discover")).GetProperty("result").GetProperty("methods");
        Assert.Equal(["alpha.calc", "beta.echo", "beta.secret", "ops.restart"],
            opsDocument.EnumerateArray().Where(static m => m.TryGetProperty("x-providers", out _)).Select(static m => m.GetProperty("name").GetString()));
    }

    [NatsFact]
    public async Task Cluster_UnauthenticatedOnOtherNode_CannotCallOrRegister()
    {
        await using var cluster = await StartAsync(output);
        await using var beta = await ConnectAsAsync(cluster, 0, "beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await cluster.KnowsMethodAsync(1, "beta.echo");
        await using var stranger = await cluster.ConnectAsync(1);

        IsRefusal(await stranger.CallAsync("beta.echo", "[]"), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "beta.echo", null);
        IsRefusal(await stranger.CallAsync("register_client", """{"name":"beta.2"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "beta.2", null);

        // beta's queue is empty: its next request is an allowed call from node 1.
        await using var alpha = await ConnectAsAsync(cluster, 1, "alpha-token", "alpha", "alpha.1");
        await alpha.SendAsync(LineClient.Request(5, "beta.echo", "[5]"));
        Assert.Equal(5, (await beta.ServeOneAsync("5")).GetProperty("params")[0].GetInt32());
        Answer.IsResult(await alpha.ReadAsync(), "5");
    }

    [NatsFact]
    public async Task Cluster_ProvideDeniedOnOneNode_HijackOfAnotherTeamsMethodRefused()
    {
        await using var cluster = await StartAsync(output);
        await using var beta = await ConnectAsAsync(cluster, 0, "beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.charge");
        await cluster.KnowsMethodAsync(1, "beta.charge");
        await using var alpha = await ConnectAsAsync(cluster, 1, "alpha-token", "alpha", "alpha.1");

        IsDenied(await alpha.CallAsync("register_method", """{"method":"beta.charge"}"""), "provide", "method", "beta.charge", "alpha");

        // A caller on node 1 (where alpha is) still reaches beta on node 0.
        await using var ops = await ConnectAsAsync(cluster, 1, "ops-token", "ops", "ops.1");
        await ops.SendAsync(LineClient.Request(1, "beta.charge", "[1]"));
        Assert.Equal("beta.charge", (await beta.ServeOneAsync("1")).GetProperty("method").GetString());
        Answer.IsResult(await ops.ReadAsync(), "1");
    }

    [NatsFact]
    public async Task Cluster_ExclusiveOnOneNode_AnotherIdentityOnTheOtherNodeIsProviderConflict()
    {
        await using var cluster = await StartAsync(output, () =>
        {
            var security = Teams();
            security.Tokens.Add(Token("mallory", "mallory-token"));
            security.Identities["mallory"] = new JsonRpcIdentityRules { Provide = Allow("alpha.pay") };
            return security;
        });
        await using var alpha = await ConnectAsAsync(cluster, 0, "alpha-token", "alpha", "alpha.1");
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}"""), "true");
        await cluster.KnowsMethodAsync(1, "alpha.pay");

        // mallory's rules allow it alpha.pay: only the exclusive registration stands in its way, on the other node too.
        await using var mallory = await ConnectAsAsync(cluster, 1, "mallory-token", "mallory", "mallory");
        Answer.IsError(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), RouterErrorCodes.ProviderConflict);

        await using var ops = await ConnectAsAsync(cluster, 1, "ops-token", "ops", "ops.1");
        await ops.SendAsync(LineClient.Request(1, "alpha.pay", "[1]"));
        Assert.Equal("alpha.pay", (await alpha.ServeOneAsync("1")).GetProperty("method").GetString());
        Answer.IsResult(await ops.ReadAsync(), "1");

        // The same identity may add a provider on the other node (a pool across nodes).
        await using var alpha2 = await ConnectAsAsync(cluster, 1, "alpha-token", "alpha", "alpha.2");
        Answer.IsResult(await alpha2.CallAsync("register_method", """{"method":"alpha.pay"}"""), "true");
        await alpha2.DisposeAsync();

        // Once its owner is gone everywhere, the name is free again on the other node.
        await alpha.DisposeAsync();
        await Eventually.TrueAsync(() => !cluster[1].Router.Routes.TryGetValue("alpha.pay"u8.ToArray(), out var route) || route.Providers.Length == 0,
            "node 1 forgets alpha.pay");
        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), "true");
    }

    [NatsFact]
    public async Task Cluster_RivalExclusiveClaimsAcceptedOnTwoNodes_LowerOwnerKeepsTheNameOnBoth()
    {
        // Rival claims that each node accepted before it could know of the other's: made while node 1 is not yet in the
        // cluster, as two claims made at the same moment would be. identity:alpha < identity:mallory.
        static JsonRpcSecurityOptions Security()
        {
            var security = Teams();
            security.Tokens.Add(Token("mallory", "mallory-token"));
            security.Identities["mallory"] = new JsonRpcIdentityRules { Provide = Allow("alpha.pay") };
            return security;
        }

        await using var cluster = await ClusterNodes.StartAsync(1, output, router: o => o.Security = Security());
        await using var mallory = await ConnectAsAsync(cluster, 0, "mallory-token", "mallory", "mallory");
        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}"""), "true");
        LineClient? alpha = null;
        try
        {
            await cluster.AddNodeAsync("n1", output, o => o.Security = Security(), beforeJoin: async host =>
            {
                alpha = await host.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
                Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}"""), "true");
            });

            // Both nodes settle on alpha's claim: node 0 drops mallory's provider, node 1 forgets node 0's.
            await Eventually.TrueAsync(() => OnlyProvider(cluster[0], peer: true) && OnlyProvider(cluster[1], peer: false), "alpha.pay settles on alpha");

            // A call made on node 0 reaches alpha on node 1; mallory may not claim the name again.
            await using var ops = await ConnectAsAsync(cluster, 0, "ops-token", "ops", "ops.1");
            await ops.SendAsync(LineClient.Request(1, "alpha.pay", "[1]"));
            Assert.Equal("alpha.pay", (await alpha!.ServeOneAsync("1")).GetProperty("method").GetString());
            Answer.IsResult(await ops.ReadAsync(), "1");
            Answer.IsError(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), RouterErrorCodes.ProviderConflict);
        }
        finally
        {
            if (alpha is not null)
            {
                await alpha.DisposeAsync();
            }
        }

        static bool OnlyProvider(RouterHost node, bool peer)
            => node.Router.Routes.TryGetValue("alpha.pay"u8.ToArray(), out var route) && route.Providers is [{ } only] && only.IsPeer == peer;
    }
}
