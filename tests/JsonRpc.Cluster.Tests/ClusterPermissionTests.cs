using System.Text.Json;
using JsonRpc.Server;
using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// Permissions on a two-node cluster: each node holds its own clients to the same configuration, whichever node the
/// other side of the call, event or registration is on.
/// </summary>
public sealed class ClusterPermissionTests(ITestOutputHelper output)
{
    private static void Configure(JsonRpcRouterOptions options)
    {
        var security = new JsonRpcSecurityOptions();
        security.Tokens.Add(new JsonRpcTokenIdentity { Identity = "billing", Token = "billing-secret" });
        security.Tokens.Add(new JsonRpcTokenIdentity { Identity = "web", Token = "web-secret" });
        var billing = new JsonRpcIdentityRules
        {
            Provide = new JsonRpcPermission { Allow = ["billing.>"] },
            Call = new JsonRpcPermission { Allow = [] },
            Subscribe = new JsonRpcPermission { Allow = ["orders.>"] },
            ClientNames = new JsonRpcPermission { Allow = ["billing.*"] },
        };
        var web = new JsonRpcIdentityRules
        {
            Provide = new JsonRpcPermission { Allow = [] },
            Call = new JsonRpcPermission { Allow = ["billing.*"], Deny = ["billing.refund"] },
            Publish = new JsonRpcPermission { Allow = ["orders.>"] },
            Subscribe = new JsonRpcPermission { Allow = ["orders.>"] },
            ClientNames = new JsonRpcPermission { Allow = ["web.*"] },
        };
        security.Identities["billing"] = billing;
        security.Identities["web"] = web;
        options.Security = security;
    }

    private static int s_names;

    private static async Task<LineClient> SignInAsync(ClusterNodes cluster, int node, string token, string identity, bool register = false)
    {
        var client = await cluster.ConnectAsync(node);
        var answer = await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}""");
        Assert.Equal(identity, answer.GetProperty("result").GetProperty("identity").GetString());
        if (register)
        {
            // register_method and subscribe need a registered client, under a name the identity may take.
            await client.RegisterAsync($"{identity}.{Interlocked.Increment(ref s_names)}");
        }

        return client;
    }

    private static void AssertDenied(JsonElement answer, string permission, string key, string name)
    {
        var error = answer.GetProperty("error");
        Assert.Equal(RouterErrorCodes.PermissionDenied, error.GetProperty("code").GetInt32());
        var data = error.GetProperty("data");
        Assert.Equal(permission, data.GetProperty("permission").GetString());
        Assert.Equal(name, data.GetProperty(key).GetString());
    }

    [NatsTheory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Call_CallerAndProviderOnDifferentNodes_CallerNodeEnforcesCallPermission(bool allowed)
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, Configure);
        await using var provider = await SignInAsync(cluster, 1, "billing-secret", "billing");
        await provider.RegisterAsync("billing.1");
        await provider.ProvideAsync("billing.charge");
        await provider.ProvideAsync("billing.refund");
        await cluster.KnowsMethodAsync(0, "billing.charge");
        await cluster.KnowsMethodAsync(0, "billing.refund");
        await using var caller = await SignInAsync(cluster, 0, "web-secret", "web");

        var method = allowed ? "billing.charge" : "billing.refund";
        await caller.SendAsync(LineClient.Request(5, method, "[10]"));
        if (allowed)
        {
            await provider.ServeOneAsync("\"ok\"");
            Assert.Equal("ok", (await caller.ReadAsync()).GetProperty("result").GetString());
        }
        else
        {
            AssertDenied(await caller.ReadAsync(), "call", "method", method);
            await provider.AssertSilentAsync(TimeSpan.FromMilliseconds(300));

            // The connection stays open and usable.
            await caller.SendAsync(LineClient.Request(6, "billing.charge", "[1]"));
            await provider.ServeOneAsync("1");
            Assert.Equal(6, (await caller.ReadAsync()).GetProperty("id").GetInt32());
        }
    }

    [NatsTheory]
    [InlineData("billing-secret", "billing", "billing.invoice", true)]
    [InlineData("web-secret", "web", "billing.invoice", false)]
    public async Task RegisterMethod_OnSecondNode_ProvidePermissionEnforcedThere(string token, string identity, string method, bool allowed)
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, Configure);
        await using var client = await SignInAsync(cluster, 1, token, identity, register: true);
        var answer = await client.CallAsync("register_method", $$"""{"method":"{{method}}"}""");
        if (allowed)
        {
            Assert.True(answer.GetProperty("result").GetBoolean());
            await cluster.KnowsMethodAsync(0, method);
        }
        else
        {
            AssertDenied(answer, "provide", "method", method);
            await Task.Delay(300);
            Assert.False(cluster[0].Router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(method), out _), "node 0 must not route a refused registration");
        }
    }

    [NatsTheory]
    [InlineData("orders.created", true)]
    [InlineData("audit.login", false)]
    public async Task Publish_SubscriberOnOtherNode_PublishPermissionEnforcedByPublisherNode(string @event, bool allowed)
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, o =>
        {
            Configure(o);
            o.Security!.Identities["billing"].Subscribe = new JsonRpcPermission { Allow = [">"] };
        });
        await using var subscriber = await SignInAsync(cluster, 1, "billing-secret", "billing", register: true);
        await subscriber.SubscribeAsync(@event);
        await Eventually.TrueAsync(() => cluster[0].Router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(@event), out var r) && r.Subscribers.Length > 0,
            "node 0 knows the subscription");
        await using var publisher = await SignInAsync(cluster, 0, "web-secret", "web");

        await publisher.SendAsync(LineClient.Notification(@event, "[1]"));
        if (allowed)
        {
            Assert.Equal(@event, (await subscriber.ReadAsync()).GetProperty("method").GetString());
        }
        else
        {
            await subscriber.AssertSilentAsync(TimeSpan.FromMilliseconds(400));
            var stats = await publisher.StatsAsync();
            Assert.True(stats.GetProperty("refusals").GetProperty("publish").GetInt64() >= 1);
        }
    }

    [NatsTheory]
    [InlineData("orders.created", true)]
    [InlineData("billing.paid", false)]
    public async Task Subscribe_OnSecondNode_SubscribePermissionEnforcedThere(string @event, bool allowed)
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, Configure);
        await using var client = await SignInAsync(cluster, 1, "web-secret", "web", register: true);
        var answer = await client.CallAsync("subscribe", $$"""{"event":"{{@event}}"}""");
        if (allowed)
        {
            Assert.True(answer.GetProperty("result").GetBoolean());
            await using var publisher = await SignInAsync(cluster, 0, "web-secret", "web");
            await Eventually.TrueAsync(() => cluster[0].Router.Routes.TryGetValue(System.Text.Encoding.UTF8.GetBytes(@event), out var r) && r.Subscribers.Length > 0,
                "node 0 knows the subscription");
            await publisher.SendAsync(LineClient.Notification(@event, "[2]"));
            Assert.Equal(@event, (await client.ReadAsync()).GetProperty("method").GetString());
        }
        else
        {
            AssertDenied(answer, "subscribe", "event", @event);
        }
    }

    [NatsTheory]
    [InlineData("web.frontend", true)]
    [InlineData("billing.fake", false)]
    public async Task RegisterClient_OnSecondNode_ClientNamePermissionEnforcedThere(string name, bool allowed)
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, Configure);
        await using var client = await SignInAsync(cluster, 1, "web-secret", "web");
        var answer = await client.CallAsync("register_client", $$"""{"name":"{{name}}"}""");
        if (allowed)
        {
            Assert.True(answer.GetProperty("result").GetBoolean());
        }
        else
        {
            AssertDenied(answer, "client_name", "name", name);

            // The name stays free for the identity allowed to take it, on the other node too.
            await using var owner = await SignInAsync(cluster, 0, "billing-secret", "billing");
            await owner.RegisterAsync(name);
        }
    }

    [NatsFact]
    public async Task RegisterMethod_ExclusiveOnOneNode_AnotherIdentityRefusedOnTheOtherNode()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output, o =>
        {
            Configure(o);
            o.Security!.Identities["web"].Provide = new JsonRpcPermission { Allow = ["billing.>"] }; // web may provide billing.* too
            o.Security.Identities["web"].ClientNames = new JsonRpcPermission();
        });
        await using var owner = await SignInAsync(cluster, 0, "billing-secret", "billing", register: true);
        var claimed = await owner.CallAsync("register_method", """{"method":"billing.charge","exclusive":true}""");
        Assert.True(claimed.GetProperty("result").GetBoolean(), claimed.ToString());
        await cluster.KnowsMethodAsync(1, "billing.charge");

        // Another identity, allowed by its rules, on the other node: refused, and no call of billing.charge reaches it.
        await using var hijacker = await SignInAsync(cluster, 1, "web-secret", "web", register: true);
        var refused = await hijacker.CallAsync("register_method", """{"method":"billing.charge"}""");
        Assert.Equal(RouterErrorCodes.ProviderConflict, refused.GetProperty("error").GetProperty("code").GetInt32());

        // The same identity on the other node may add a replica.
        await using var replica = await SignInAsync(cluster, 1, "billing-secret", "billing", register: true);
        var added = await replica.CallAsync("register_method", """{"method":"billing.charge"}""");
        Assert.True(added.GetProperty("result").GetBoolean(), added.ToString());

        // Asking for exclusivity where another identity already provides the method on another node is refused.
        await using var first = await SignInAsync(cluster, 1, "web-secret", "web", register: true);
        Assert.True((await first.CallAsync("register_method", """{"method":"billing.quote"}""")).GetProperty("result").GetBoolean());
        await cluster.KnowsMethodAsync(0, "billing.quote");
        await using var second = await SignInAsync(cluster, 0, "billing-secret", "billing", register: true);
        var exclusive = await second.CallAsync("register_method", """{"method":"billing.quote","exclusive":true}""");
        Assert.Equal(RouterErrorCodes.ProviderConflict, exclusive.GetProperty("error").GetProperty("code").GetInt32());
    }
}
