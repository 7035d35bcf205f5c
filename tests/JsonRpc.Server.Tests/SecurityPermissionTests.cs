using System.Text.Json;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The permission matrix over TCP: each kind (provide, call, publish, subscribe, client name) allowed and denied, with
/// the exact refusal, nothing of a refused message reaching anyone, and the connection still serving afterwards.
/// </summary>
public sealed class SecurityPermissionTests(ITestOutputHelper output)
{
    [Fact]
    public async Task RegisterMethod_ProvideAllowed_IsRegisteredAndCallable()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");

        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.calc.add"}"""), "true");

        await beta.SendAsync(LineClient.Request(7, "alpha.calc.add", "[1,2]"));
        var request = await alpha.ServeOneAsync("3");
        Assert.Equal("alpha.calc.add", request.GetProperty("method").GetString());
        Answer.IsResult(await beta.ReadAsync(), "3");
    }

    [Fact]
    public async Task RegisterMethod_ProvideDenied_IsRefusedWithDataAndConnectionStillServes()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");

        var data = IsDenied(await alpha.CallAsync("register_method", """{"method":"beta.charge"}"""), "provide", "method", "beta.charge", "alpha");
        Assert.Contains("beta.charge", data.GetProperty("detail").GetString(), StringComparison.Ordinal);

        // Nothing was registered: the monitor sees no such method, and a call to it is not found.
        Assert.DoesNotContain("beta.charge", MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")));
        Answer.IsError(await ops.CallAsync("beta.charge", "[]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);

        // The connection stays open and may still do what it is allowed to.
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.charge"}"""), "true");
        var stats = await ops.StatsAsync();
        Assert.Equal(1, Refusals(stats, "provide"));
        Assert.Equal(1, IdentityStats(stats, "alpha").GetProperty("refusals").GetInt64());
    }

    [Fact]
    public async Task Call_Allowed_ReachesProvider()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        await alpha.SendAsync(LineClient.Request(1, "beta.echo", """["hi"]"""));
        var request = await beta.ServeOneAsync("\"hi\"");
        Assert.Equal("beta.echo", request.GetProperty("method").GetString());
        Answer.IsResult(await alpha.ReadAsync(), "\"hi\"");
    }

    [Theory]
    [InlineData("beta.secret")] // allowed by beta.* but denied by name: a deny wins
    [InlineData("beta.admin.reset")] // beta.* is one token only, and no other allow matches
    public async Task Call_Denied_IsRefusedReachesNoProviderAndConnectionStillServes(string method)
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync(method);
        await beta.ProvideAsync("beta.echo");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        var data = IsDenied(await alpha.CallAsync(method, "[]"), "call", "method", method, "alpha");
        Assert.DoesNotContain("retry_after_ms", data.ToString(), StringComparison.Ordinal);

        // The provider's next message is the allowed call that followed: the refused one never reached it.
        await alpha.SendAsync(LineClient.Request(2, "beta.echo", "[1]"));
        var request = await beta.ServeOneAsync("1");
        Assert.Equal("beta.echo", request.GetProperty("method").GetString());
        var answer = await alpha.ReadAsync();
        Assert.Equal(2, answer.GetProperty("id").GetInt32());
        Answer.IsResult(answer, "1");

        var stats = (await beta.StatsAsync());
        Assert.Equal(1, stats.GetProperty("calls_routed").GetInt64());
    }

    [Fact]
    public async Task Call_DeniedNotification_IsNotAnsweredNotDeliveredButAudited()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.secret");
        await beta.ProvideAsync("beta.echo");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops");

        await alpha.SendAsync(LineClient.Notification("beta.secret", "[]"));
        await alpha.SendAsync(LineClient.Notification("beta.echo", "[2]"));

        // The provider gets the allowed notification only; the caller gets no answer at all (its next line answers keepAlive).
        var delivered = await beta.ReadAsync();
        Assert.Equal("beta.echo", delivered.GetProperty("method").GetString());
        Answer.IsResult(await alpha.CallAsync("keepAlive"), "true");
        await Eventually.TrueAsync(async () => Refusals(await ops.StatsAsync(), "call") == 1, "the refused notification is counted");
    }

    [Fact]
    public async Task Publish_AllowedAndDenied_OnlyAllowedEventReachesSubscribers()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        await ops.SubscribeAsync("beta.events.tick");
        await ops.SubscribeAsync("alpha.events.tick");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        await alpha.SendAsync(LineClient.Notification("beta.events.tick", """{"n":1}"""));
        await alpha.SendAsync(LineClient.Notification("alpha.events.tick", """{"n":2}"""));

        var @event = await ops.ReadAsync();
        Assert.Equal("alpha.events.tick", @event.GetProperty("method").GetString());
        Assert.Equal(2, @event.GetProperty("params").GetProperty("n").GetInt32());

        // The publisher is not answered (a notification), stays connected, and the refusal is counted for it.
        Answer.IsResult(await alpha.CallAsync("keepAlive"), "true");
        var stats = await ops.StatsAsync();
        Assert.Equal(1, Refusals(stats, "publish"));
        Assert.Equal(1, IdentityStats(stats, "alpha").GetProperty("refusals").GetInt64());
        Assert.Equal(1, stats.GetProperty("events_published").GetInt64());
    }

    [Fact]
    public async Task Subscribe_Allowed_ReceivesEvents()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");

        Answer.IsResult(await alpha.CallAsync("subscribe", """{"event":"beta.events.tick"}"""), "true");
        await beta.SendAsync(LineClient.Notification("beta.events.tick", "[1]"));
        Assert.Equal("beta.events.tick", (await alpha.ReadAsync()).GetProperty("method").GetString());
    }

    [Fact]
    public async Task Subscribe_Denied_IsRefusedAndReceivesNothing()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");

        // beta.events.* matches one token only.
        IsDenied(await alpha.CallAsync("subscribe", """{"event":"beta.events.eu.tick"}"""), "subscribe", "event", "beta.events.eu.tick", "alpha");
        Answer.IsResult(await alpha.CallAsync("subscribe", """{"event":"beta.events.tick"}"""), "true");

        await beta.SendAsync(LineClient.Notification("beta.events.eu.tick", "[1]"));
        await beta.SendAsync(LineClient.Notification("beta.events.tick", "[2]"));
        var @event = await alpha.ReadAsync();
        Assert.Equal("beta.events.tick", @event.GetProperty("method").GetString());
        Assert.Equal(1, Refusals(await alpha.StatsAsync(), "subscribe"));
    }

    [Fact]
    public async Task RegisterClient_NameAllowed_IsRegistered()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsync();
        Answer.IsResult(await alpha.CallAsync("register_client", """{"name":"alpha.web","token":"alpha-token"}"""), "true");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops");
        Assert.Contains("alpha.web", ClientNames((await ops.CallAsync("list_clients")).GetProperty("result")));
    }

    [Fact]
    public async Task RegisterClient_NameDenied_IsRefusedAndConnectionMayRegisterAllowedName()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsync();

        // The token is accepted (the connection is alpha from now on) but the name is not alpha's.
        IsDenied(await alpha.CallAsync("register_client", """{"name":"beta.1","token":"alpha-token"}"""), "client_name", "name", "beta.1", "alpha");
        IsDenied(await alpha.CallAsync("register_client", """{"name":"alpha"}"""), "client_name", "name", "alpha", "alpha");

        Answer.IsResult(await alpha.CallAsync("register_client", """{"name":"alpha.1"}"""), "true");
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.ok"}"""), "true");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops");
        var clients = ClientNames((await ops.CallAsync("list_clients")).GetProperty("result"));
        Assert.Contains("alpha.1", clients);
        Assert.DoesNotContain("beta.1", clients);
        Assert.Equal(2, Refusals(await ops.StatsAsync(), "client_name"));
    }

    [Fact]
    public async Task Batch_MixedAllowedAndDenied_EachElementAnsweredOnItsOwn()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await beta.ProvideAsync("beta.secret");
        await beta.SubscribeAsync("alpha.events.tick");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        await alpha.SendAsync("[" + string.Join(",",
            LineClient.Request(1, "beta.echo", "[1]"),
            LineClient.Request(2, "beta.secret", "[2]"),
            LineClient.Request(3, "register_method", """{"method":"beta.hijack"}"""),
            LineClient.Request(4, "register_method", """{"method":"alpha.fine"}"""),
            LineClient.Request(5, "subscribe", """{"event":"alpha.events.tick"}"""),
            LineClient.Request(6, "subscribe", """{"event":"beta.events.tick"}"""),
            LineClient.Notification("beta.events.tick", "[7]"),
            LineClient.Notification("alpha.events.tick", "[8]")) + "]");

        // beta gets the allowed call and the allowed event, in some order, and nothing else.
        var seen = new List<string>();
        for (var i = 0; i < 2; i++)
        {
            var message = await beta.ReadAsync();
            seen.Add(message.GetProperty("method").GetString()!);
            if (message.TryGetProperty("id", out var id))
            {
                await beta.SendAsync($$"""{"jsonrpc":"2.0","id":{{id.GetRawText()}},"result":"one"}""");
            }
        }

        Assert.Equal(["alpha.events.tick", "beta.echo"], seen.Order());

        var batch = await alpha.ReadAsync();
        Assert.Equal(6, batch.GetArrayLength());
        Answer.IsResult(ById(batch, 1), "\"one\"");
        IsDenied(ById(batch, 2), "call", "method", "beta.secret", "alpha");
        IsDenied(ById(batch, 3), "provide", "method", "beta.hijack", "alpha");
        Answer.IsResult(ById(batch, 4), "true");
        IsDenied(ById(batch, 5), "subscribe", "event", "alpha.events.tick", "alpha");
        Answer.IsResult(ById(batch, 6), "true");

        var stats = await alpha.StatsAsync();
        Assert.Equal(1, Refusals(stats, "call"));
        Assert.Equal(1, Refusals(stats, "provide"));
        Assert.Equal(1, Refusals(stats, "subscribe"));
        Assert.Equal(1, Refusals(stats, "publish"));
        Assert.Equal(4, IdentityStats(stats, "alpha").GetProperty("refusals").GetInt64());

        // Still open, and beta's queue holds nothing else: its next message is this new call.
        await alpha.SendAsync(LineClient.Request(9, "beta.echo", "[9]"));
        Assert.Equal(9, (await beta.ServeOneAsync("9")).GetProperty("params")[0].GetInt32());
        Answer.IsResult(await alpha.ReadAsync(), "9");
    }

    [Fact]
    public async Task Unauthenticated_AnythingButAuthenticate_IsNotAuthenticated()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await using var stranger = await server.ConnectAsync();

        IsRefusal(await stranger.CallAsync("register_client", """{"name":"beta.2"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "beta.2", identity: null);
        IsRefusal(await stranger.CallAsync("beta.echo", "[]"), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "beta.echo", identity: null);
        IsRefusal(await stranger.CallAsync("list_methods"), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "list_methods", identity: null);
        Answer.IsResult(await stranger.CallAsync("keepAlive"), "true");

        // Stats show an unauthenticated connection no identity.
        var stats = await stranger.StatsAsync();
        Assert.Equal(3, Refusals(stats, "not_authenticated"));
        Assert.Empty(stats.GetProperty("identities").EnumerateObject());

        // It may still authenticate, and is then served.
        var identity = (await stranger.CallAsync("authenticate", """{"token":"alpha-token"}""")).GetProperty("result");
        Assert.Equal("""{"identity":"alpha","roles":[]}""", identity.GetRawText());
        await stranger.SendAsync(LineClient.Request(5, "beta.echo", "[5]"));
        await beta.ServeOneAsync("5");
        Answer.IsResult(await stranger.ReadAsync(), "5");
    }

    [Fact]
    public async Task Authenticate_UnknownToken_IsAccessDeniedAndCloses()
    {
        var capture = new CapturingLoggerProvider();
        await using var server = await StartAsync(Teams(), output, capture);
        await using var client = await server.ConnectAsync();

        var answer = await client.CallAsync("authenticate", """{"token":"guessed-token"}""");
        Answer.IsError(answer, RouterErrorCodes.AccessDenied);
        await client.AssertClosedAsync();

        await using var again = await server.ConnectAsync();
        Answer.IsError(await again.CallAsync("register_client", """{"name":"alpha.1","token":"guessed-token"}"""), RouterErrorCodes.AccessDenied);
        await again.AssertClosedAsync();

        await using var ops = await server.ConnectAsAsync("ops-token", "ops");
        Assert.Equal(2, Refusals(await ops.StatsAsync(), "authentication"));
        Assert.DoesNotContain(capture.Messages, m => m.Contains("guessed-token", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Authenticate_TokenWithRoles_AnswersRolesAndAppliesRoleRules()
    {
        var security = Teams();
        security.Tokens.Add(Token("carol", "carol-token", "reader"));
        security.Roles["reader"] = new JsonRpcIdentityRules { Call = Allow("beta.get") };
        await using var server = await StartAsync(security, output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.get");
        await beta.ProvideAsync("beta.put");
        await using var carol = await server.ConnectAsync();

        Assert.Equal("""{"identity":"carol","roles":["reader"]}""", (await carol.CallAsync("authenticate", """{"token":"carol-token"}""")).GetProperty("result").GetRawText());
        IsDenied(await carol.CallAsync("beta.put", "[]"), "call", "method", "beta.put", "carol");
        await carol.SendAsync(LineClient.Request(3, "beta.get", "[]"));
        Assert.Equal("beta.get", (await beta.ServeOneAsync("0")).GetProperty("method").GetString());
        Answer.IsResult(await carol.ReadAsync(), "0");
    }

    [Fact]
    public async Task Authenticate_AsAnotherIdentityOnceAuthenticated_IsRefusedAndKeepsIdentity()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha");

        Answer.IsError(await alpha.CallAsync("authenticate", """{"token":"ops-token"}"""), RouterErrorCodes.AccessDenied);

        // Still alpha, still connected: a monitor would see beta's counters, alpha sees only its own.
        var stats = await alpha.StatsAsync();
        Assert.Equal(["alpha"], stats.GetProperty("identities").EnumerateObject().Select(static p => p.Name));
        Assert.Equal(1, IdentityStats(stats, "alpha").GetProperty("connections").GetInt32());
    }

    [Fact]
    public async Task ListMethodsAndClients_NonMonitor_SeesOnlyWhatItMayCall()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await beta.ProvideAsync("beta.secret");
        await using var other = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        await other.ProvideAsync("ops.restart");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await alpha.ProvideAsync("alpha.calc");

        Assert.Equal(["alpha.calc", "beta.echo"], MethodNames((await alpha.CallAsync("list_methods")).GetProperty("result")));
        Assert.Equal(["alpha.1", "beta.1"], ClientNames((await alpha.CallAsync("list_clients")).GetProperty("result")));
        Assert.Equal(["alpha.calc", "beta.echo", "beta.secret", "ops.restart"], MethodNames((await other.CallAsync("list_methods")).GetProperty("result")));
        Assert.Equal(["alpha.1", "beta.1", "ops.1"], ClientNames((await other.CallAsync("list_clients")).GetProperty("result")));

        var alphaStats = await alpha.StatsAsync();
        Assert.Equal(["alpha"], alphaStats.GetProperty("identities").EnumerateObject().Select(static p => p.Name));
        var opsStats = await other.StatsAsync();
        Assert.Equal(["alpha", "beta", "ops"], opsStats.GetProperty("identities").EnumerateObject().Select(static p => p.Name));
    }

    [Fact]
    public async Task RegisterMethod_ExclusivelyProvidedByAnotherIdentity_IsProviderConflict()
    {
        var security = Teams();
        security.Tokens.Add(Token("mallory", "mallory-token"));
        security.Identities["mallory"] = new JsonRpcIdentityRules { Provide = Allow("alpha.pay") };
        await using var server = await StartAsync(security, output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}"""), "true");

        // mallory's rules allow it to provide alpha.pay, yet it may not take over an exclusive method.
        await using var mallory = await server.ConnectAsAsync("mallory-token", "mallory", "mallory");
        Answer.IsError(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), RouterErrorCodes.ProviderConflict);
        Answer.IsError(await mallory.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}"""), RouterErrorCodes.ProviderConflict);

        // The same identity may add providers (a pool), and calls still reach only alpha's connections.
        await using var alpha2 = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.2");
        Answer.IsResult(await alpha2.CallAsync("register_method", """{"method":"alpha.pay"}"""), "true");
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        for (var i = 0; i < 2; i++)
        {
            await beta.SendAsync(LineClient.Request(10 + i, "alpha.pay", "[]"));
        }

        await alpha.ServeOneAsync("1");
        await alpha2.ServeOneAsync("2");
        var answers = new[] { await beta.ReadAsync(), await beta.ReadAsync() };
        Assert.All(answers, a => Assert.True(a.TryGetProperty("result", out _), a.ToString()));

        var stats = await beta.StatsAsync();
        Assert.Equal(2, Refusals(stats, "exclusive"));
        Assert.Equal(2, IdentityStats(await mallory.StatsAsync(), "mallory").GetProperty("refusals").GetInt64()); // counted against mallory too

        // Once alpha's providers are gone the name is free again.
        await alpha.DisposeAsync();
        await alpha2.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().RegisteredClients == 2, "alpha's connections are gone");
        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), "true");
    }

    [Fact]
    public async Task RegisterMethod_NameAnotherIdentitysProvideRulesClaim_IsRefusedToAnIdentityWithoutProvideRules()
    {
        // mallory authenticates but has no rules of its own: it may provide any name that no Provide allow list names,
        // and none that one does (alpha's alpha.>, beta's beta.>), so it cannot take a share of their calls.
        var security = Teams();
        security.Tokens.Add(Token("mallory", "mallory-token"));
        await using var server = await StartAsync(security, output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await alpha.ProvideAsync("alpha.pay");
        await using var mallory = await server.ConnectAsAsync("mallory-token", "mallory", "mallory");

        foreach (var name in new[] { "alpha.pay", "alpha.eu.pay", "beta.charge" })
        {
            var data = IsDenied(await mallory.CallAsync("register_method", $$"""{"method":"{{name}}"}"""), "provide", "method", name, "mallory");
            Assert.Contains("claimed by another identity's Provide allow list", data.GetProperty("detail").GetString(), StringComparison.Ordinal);
        }

        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"mallory.tools"}"""), "true");
        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"alpha"}"""), "true"); // alpha.> needs one more token

        // Client names the same way: alpha.* is what alpha's clients go by.
        await using var mallory2 = await server.ConnectAsAsync("mallory-token", "mallory");
        var named = IsDenied(await mallory2.CallAsync("register_client", """{"name":"alpha.9"}"""), "client_name", "name", "alpha.9", "mallory");
        Assert.Contains("claimed by another identity's ClientNames allow list", named.GetProperty("detail").GetString(), StringComparison.Ordinal);
        await mallory2.RegisterAsync("mallory.2");

        // Every call of alpha.pay reaches alpha.
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        for (var i = 0; i < 4; i++)
        {
            await beta.SendAsync(LineClient.Request(20 + i, "alpha.pay", "[]"));
            await alpha.ServeOneAsync("1");
            Answer.IsResult(await beta.ReadAsync(), "1");
        }

        var stats = await beta.StatsAsync();
        Assert.Equal(3, Refusals(stats, "provide"));
        Assert.Equal(1, Refusals(stats, "client_name"));

        // A reload that gives alpha mallory.> too claims the name: mallory's registration is removed at once.
        var widened = Teams();
        widened.Tokens.Add(Token("mallory", "mallory-token"));
        widened.Identities["alpha"].Provide = Allow("alpha.>", "mallory.>");
        server.Router.UpdateSecurity(widened);
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        var methods = MethodNames((await ops.CallAsync("list_methods")).GetProperty("result"));
        Assert.DoesNotContain("mallory.tools", methods);
        Assert.Contains("alpha", methods);
        Assert.Contains("alpha.pay", methods);
    }

    [Fact]
    public async Task RegisterMethod_ExclusiveWhileAnotherIdentityProvides_IsProviderConflict()
    {
        var security = Teams();
        security.Tokens.Add(Token("mallory", "mallory-token"));
        security.Identities["mallory"] = new JsonRpcIdentityRules { Provide = Allow("alpha.pay") };
        await using var server = await StartAsync(security, output);
        await using var mallory = await server.ConnectAsAsync("mallory-token", "mallory", "mallory");
        Answer.IsResult(await mallory.CallAsync("register_method", """{"method":"alpha.pay"}"""), "true");

        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        var answer = await alpha.CallAsync("register_method", """{"method":"alpha.pay","exclusive":true}""");
        Answer.IsError(answer, RouterErrorCodes.ProviderConflict);
    }

    [Fact]
    public async Task RegisterMethod_AnotherTeamsMethodWithoutExclusive_ProvideRuleRefusesHijack()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.charge");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        IsDenied(await alpha.CallAsync("register_method", """{"method":"beta.charge"}"""), "provide", "method", "beta.charge", "alpha");

        // Every call still goes to beta (alpha never became a provider to share the load with).
        await using var ops = await server.ConnectAsAsync("ops-token", "ops");
        for (var i = 0; i < 4; i++)
        {
            await ops.SendAsync(LineClient.Request(i, "beta.charge", "[]"));
            await beta.ServeOneAsync("0");
            Answer.IsResult(await ops.ReadAsync(), "0");
        }

        var list = (await ops.CallAsync("list_methods")).GetProperty("result");
        var charge = list.EnumerateArray().Single(m => m.GetProperty("method").GetString() == "beta.charge");
        Assert.Equal(["beta.1"], charge.GetProperty("providers").EnumerateArray().Select(static p => p.GetString()));
    }

    [Fact]
    public async Task Anonymous_RulesConfigured_UnauthenticatedMayDoWhatTheyAllow()
    {
        var security = Teams();
        security.Anonymous = new JsonRpcIdentityRules { Call = Allow("beta.public"), Provide = Allow(), ClientNames = Allow("guest.*") };
        await using var server = await StartAsync(security, output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.public");
        await beta.ProvideAsync("beta.echo");
        await using var guest = await server.ConnectAsync();

        Answer.IsResult(await guest.CallAsync("register_client", """{"name":"guest.1"}"""), "true");
        IsDenied(await guest.CallAsync("register_method", """{"method":"guest.x"}"""), "provide", "method", "guest.x", "(anonymous)");
        IsDenied(await guest.CallAsync("beta.echo", "[]"), "call", "method", "beta.echo", "(anonymous)");
        await guest.SendAsync(LineClient.Request(4, "beta.public", "[]"));
        Assert.Equal("beta.public", (await beta.ServeOneAsync("4")).GetProperty("method").GetString());
        Answer.IsResult(await guest.ReadAsync(), "4");
        Assert.Equal(["beta.public"], MethodNames((await guest.CallAsync("list_methods")).GetProperty("result")));
    }


    [Theory]
    [InlineData("billing.charge", "billing.charge", true)]
    [InlineData("billing.charge", "billing.charge.eu", false)]
    [InlineData("billing.*", "billing.charge", true)]
    [InlineData("billing.*", "billing", false)]
    [InlineData("billing.*", "billing.eu.charge", false)]
    [InlineData("billing.>", "billing.charge", true)]
    [InlineData("billing.>", "billing.eu.charge", true)]
    [InlineData("billing.>", "billing", false)]
    [InlineData("*.charge", "billing.charge", true)]
    [InlineData("*.charge", "billing.refund", false)]
    [InlineData("*.*.charge", "billing.eu.charge", true)]
    [InlineData("billing.*.>", "billing.eu", false)]
    [InlineData("billing.*.>", "billing.eu.charge", true)]
    [InlineData(">", "anything.at.all", true)]
    [InlineData("*", "single", true)]
    [InlineData("*", "two.tokens", false)]
    [InlineData("bill", "billing", false)]
    public void SubjectPattern_Matches_LikeNatsSubjects(string pattern, string name, bool matches)
    {
        var compiled = Security.SubjectPattern.TryCreate(pattern, out var problem);
        Assert.NotNull(compiled);
        Assert.Null(problem);
        Assert.Equal(matches, compiled.Matches(System.Text.Encoding.UTF8.GetBytes(name)));

        // The same through a permission (where literals take another path than wildcards).
        var permission = new Security.CompiledPermission(restricted: true, [compiled], []);
        Assert.Equal(matches, permission.IsAllowed(name, out _));
        var denial = new Security.CompiledPermission(restricted: false, [], [compiled]);
        Assert.Equal(!matches, denial.IsAllowed(name, out var rule));
        Assert.Equal(matches ? pattern : null, rule);
    }

    [Fact]
    public async Task Call_DenyInDefaultOrRole_WinsOverAnIdentitysAllow()
    {
        var security = Teams();
        security.Tokens.Add(Token("dana", "dana-token", "auditor"));
        security.Identities["dana"] = new JsonRpcIdentityRules { Call = Allow("beta.>", "admin.>") };
        security.Roles["auditor"] = new JsonRpcIdentityRules { Call = Deny("beta.secret") };
        security.Default = new JsonRpcIdentityRules { Call = Deny("admin.>") };
        security.Identities["ops"].Provide = Allow("admin.>", "beta.>"); // beta.> is beta's: ops needs an allow of its own
        await using var server = await StartAsync(security, output);
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        await ops.ProvideAsync("admin.reset");
        await ops.ProvideAsync("beta.secret");
        await ops.ProvideAsync("beta.echo");
        await using var dana = await server.ConnectAsAsync("dana-token", "dana", "dana");

        IsDenied(await dana.CallAsync("admin.reset", "[]"), "call", "method", "admin.reset", "dana");
        IsDenied(await dana.CallAsync("beta.secret", "[]"), "call", "method", "beta.secret", "dana");
        await dana.SendAsync(LineClient.Request(3, "beta.echo", "[]"));
        Assert.Equal("beta.echo", (await ops.ServeOneAsync("3")).GetProperty("method").GetString());
        Answer.IsResult(await dana.ReadAsync(), "3");

        // The default applies to every identity, the monitor too.
        IsDenied(await ops.CallAsync("admin.reset", "[]"), "call", "method", "admin.reset", "ops");
    }

    [Theory]
    [InlineData("call")] // may call the provider, may not publish to the subscribers
    [InlineData("publish")] // may publish, may not call the provider
    public async Task Notification_ToProviderAndSubscribers_EachPermissionCheckedOnItsOwn(string allowed)
    {
        var security = Teams();
        security.Tokens.Add(Token("gina", "gina-token"));
        security.Identities["gina"] = allowed == "call"
            ? new JsonRpcIdentityRules { Call = Allow("beta.both"), Publish = Allow() }
            : new JsonRpcIdentityRules { Call = Allow(), Publish = Allow("beta.both") };
        await using var server = await StartAsync(security, output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.both");
        await beta.ProvideAsync("beta.after");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        await ops.SubscribeAsync("beta.both");
        await ops.SubscribeAsync("beta.after");
        await using var gina = await server.ConnectAsAsync("gina-token", "gina", "gina");

        await gina.SendAsync(LineClient.Notification("beta.both", "[1]"));
        Answer.IsResult(await gina.CallAsync("keepAlive"), "true"); // gina's notification has been handled

        // What each got from gina comes before what it gets next.
        await ops.SendAsync(LineClient.Notification("beta.after", "[2]"));
        await ops.SendAsync(LineClient.Request(77, "keepAlive"));
        var toBeta = await beta.ReadAsync();
        var toOps = await ops.ReadAsync();
        if (allowed == "call")
        {
            Assert.Equal("beta.both", toBeta.GetProperty("method").GetString());
            Assert.Equal(77, toOps.GetProperty("id").GetInt32());
        }
        else
        {
            Assert.Equal("beta.after", toBeta.GetProperty("method").GetString());
            Assert.Equal("beta.both", toOps.GetProperty("method").GetString());
            Assert.Equal(77, (await ops.ReadAsync()).GetProperty("id").GetInt32());
        }

        var stats = await ops.StatsAsync();
        Assert.Equal(allowed == "call" ? 1 : 0, Refusals(stats, "publish"));
        Assert.Equal(allowed == "call" ? 0 : 1, Refusals(stats, "call"));
    }

    [Fact]
    public async Task Batch_AuthenticateFirst_LaterElementsActAsTheIdentity()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var client = await server.ConnectAsync();

        await client.SendAsync("[" + string.Join(",",
            LineClient.Request(1, "register_client", """{"name":"alpha.1"}"""),
            LineClient.Request(2, "authenticate", """{"token":"alpha-token"}"""),
            LineClient.Request(3, "register_client", """{"name":"alpha.1"}"""),
            LineClient.Request(4, "register_method", """{"method":"beta.x"}""")) + "]");

        var batch = await client.ReadAsync();
        Answer.IsError(ById(batch, 1), RouterErrorCodes.NotAuthenticated);
        Answer.IsResult(ById(batch, 2), """{"identity":"alpha","roles":[]}""");
        Answer.IsResult(ById(batch, 3), "true");
        IsDenied(ById(batch, 4), "provide", "method", "beta.x", "alpha");
    }
}
