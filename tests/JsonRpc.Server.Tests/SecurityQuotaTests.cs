using System.Text.Json;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Server.Tests;

/// <summary>Quotas per identity: calls per second, calls in flight, connections. Counts are asserted, never speed.</summary>
public sealed class SecurityQuotaTests(ITestOutputHelper output)
{
    private static JsonRpcSecurityOptions Quotas(string identity, JsonRpcQuota quota)
    {
        var security = new JsonRpcSecurityOptions();
        security.Tokens.Add(Token(identity, identity + "-token"));
        security.Tokens.Add(Token("other", "other-token"));
        security.Tokens.Add(Token("svc", "svc-token"));
        security.Identities[identity] = new JsonRpcIdentityRules { Quota = quota };
        return security;
    }

    /// <summary>Answers every call the provider gets with its first parameter, until the connection ends.</summary>
    private static Task ServeAllAsync(LineClient provider) => Task.Run(async () =>
    {
        while (await provider.ReadLineAsync(TimeSpan.FromMinutes(2)) is { } line)
        {
            using var request = JsonDocument.Parse(line);
            if (request.RootElement.TryGetProperty("id", out var id))
            {
                await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{id.GetRawText()}},"result":{{request.RootElement.GetProperty("params")[0].GetRawText()}}}""");
            }
        }
    });

    private static async Task<List<JsonElement>> CallManyAsync(LineClient client, string method, int count, int firstId)
    {
        // Pipelined: every request is sent before any answer is read.
        await client.SendAsync(string.Join("\n", Enumerable.Range(firstId, count).Select(i => LineClient.Request(i, method, $"[{i}]"))));
        var answers = new List<JsonElement>();
        for (var i = 0; i < count; i++)
        {
            answers.Add(await client.ReadAsync());
        }

        return answers;
    }

    [Fact]
    public async Task CallsPerSecond_FloodFarPastTheRate_HeldToItThroughReading_EveryCallAnsweredOnce_OtherIdentityServed()
    {
        // 600 calls written at once by an identity allowed 20 a second: the first 32 refusals come at once, then the
        // router reads that connection only as its bucket refills (the read pauses show it), so the flood costs the
        // router a refusal burst per pause; every call still gets exactly one answer, and the other identity is served.
        await using var server = await StartAsync(Quotas("limited", new JsonRpcQuota { CallsPerSecond = 20, Burst = 5 }), output);
        await using var provider = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await provider.ProvideAsync("svc.echo");
        var serving = ServeAllAsync(provider);
        await using var limited = await server.ConnectAsAsync("limited-token", "limited");
        await using var other = await server.ConnectAsAsync("other-token", "other");
        var pausesBefore = server.Router.GetStats().ReadPauses;

        var flood = CallManyAsync(limited, "svc.echo", 600, 1);
        var otherAnswers = await CallManyAsync(other, "svc.echo", 200, 1000);
        var answers = await flood;

        Assert.Equal(600, answers.Select(static a => a.GetProperty("id").GetInt32()).Distinct().Count());
        var results = answers.Count(static a => a.TryGetProperty("result", out _));
        var refused = answers.Where(static a => a.TryGetProperty("error", out _)).ToList();
        Assert.Equal(600, results + refused.Count);
        Assert.All(refused, a => IsRefusal(a, RouterErrorCodes.QuotaExceeded, "rate", "method", "svc.echo", "limited"));
        Assert.InRange(results, 5, 599);
        Assert.True(server.Router.GetStats().ReadPauses > pausesBefore, "the flooding connection was never paused");
        Assert.All(otherAnswers, a => Assert.Equal(a.GetProperty("id").GetInt32(), a.GetProperty("result").GetInt32()));
        await provider.DisposeAsync();
        await serving.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task CallsPerSecond_OverRate_RefusedWithRetryAfterWhileOtherIdentityIsServedInFull()
    {
        // A bucket of 3 refilled once per 100 s: exactly 3 of the limited identity's calls pass, however slow the machine.
        await using var server = await StartAsync(Quotas("limited", new JsonRpcQuota { CallsPerSecond = 0.01, Burst = 3 }), output);
        await using var provider = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await provider.ProvideAsync("svc.echo");
        var serving = ServeAllAsync(provider);
        await using var limited = await server.ConnectAsAsync("limited-token", "limited");
        await using var other = await server.ConnectAsAsync("other-token", "other");

        var limitedCalls = CallManyAsync(limited, "svc.echo", 20, 1);
        var otherCalls = CallManyAsync(other, "svc.echo", 300, 1000);
        var limitedAnswers = await limitedCalls;
        var otherAnswers = await otherCalls;

        Assert.Equal(3, limitedAnswers.Count(static a => a.TryGetProperty("result", out _)));
        var refused = limitedAnswers.Where(static a => a.TryGetProperty("error", out _)).ToList();
        Assert.Equal(17, refused.Count);
        foreach (var answer in refused)
        {
            var data = IsRefusal(answer, RouterErrorCodes.QuotaExceeded, "rate", "method", "svc.echo", "limited");
            Assert.True(data.GetProperty("retry_after_ms").GetInt64() > 0, data.ToString());
        }

        Assert.All(otherAnswers, a => Assert.Equal(a.GetProperty("id").GetInt32(), a.GetProperty("result").GetInt32()));

        var stats = await limited.StatsAsync();
        var mine = IdentityStats(stats, "limited");
        Assert.Equal(3, mine.GetProperty("calls").GetInt64());
        Assert.Equal(17, mine.GetProperty("rate_limited").GetInt64());
        Assert.Equal(17, mine.GetProperty("refusals").GetInt64());
        Assert.Equal(17, Refusals(stats, "rate"));
        var theirs = IdentityStats(await other.StatsAsync(), "other");
        Assert.Equal(300, theirs.GetProperty("calls").GetInt64());
        Assert.Equal(0, theirs.GetProperty("rate_limited").GetInt64());

        // Notifications count against the rate too, and are dropped (audited) rather than answered.
        await limited.SendAsync(LineClient.Notification("svc.echo", "[0]"));
        Answer.IsResult(await limited.CallAsync("keepAlive"), "true");
        await Eventually.TrueAsync(async () => IdentityStats(await limited.StatsAsync(), "limited").GetProperty("rate_limited").GetInt64() == 18,
            "the notification is rate limited");
        await provider.DisposeAsync();
        await serving.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task MaxCallsInFlight_AcrossConnectionsOfOneIdentity_RefusesTheCallOverTheLimitOnly()
    {
        await using var server = await StartAsync(Quotas("busy", new JsonRpcQuota { MaxCallsInFlight = 2 }), output);
        await using var provider = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await provider.ProvideAsync("svc.hold");
        await using var busy1 = await server.ConnectAsAsync("busy-token", "busy");
        await using var busy2 = await server.ConnectAsAsync("busy-token", "busy");
        await using var other = await server.ConnectAsAsync("other-token", "other");

        await busy1.SendAsync(LineClient.Request(1, "svc.hold", "[1]"));
        await busy2.SendAsync(LineClient.Request(2, "svc.hold", "[2]"));
        var held = new[] { await provider.ReadAsync(), await provider.ReadAsync() };

        // The third, on either connection, is over the identity's limit; another identity's call still goes through.
        var data = IsRefusal(await busy1.CallAsync("svc.hold", "[3]"), RouterErrorCodes.QuotaExceeded, "in_flight", key: null, value: null, "busy");
        Assert.False(data.TryGetProperty("method", out _));
        Assert.Equal(0, data.GetProperty("retry_after_ms").GetInt64());
        await other.SendAsync(LineClient.Request(4, "svc.hold", "[4]"));
        Assert.Equal(4, (await provider.ServeOneAsync("4")).GetProperty("params")[0].GetInt32());
        Answer.IsResult(await other.ReadAsync(), "4");
        Assert.Equal(2, IdentityStats(await busy2.StatsAsync(), "busy").GetProperty("in_flight").GetInt32());

        // One answered: there is room for one more.
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{held[0].GetProperty("id").GetRawText()}},"result":0}""");
        var first = held[0].GetProperty("params")[0].GetInt32() == 1 ? busy1 : busy2;
        Answer.IsResult(await first.ReadAsync(), "0");
        await Eventually.TrueAsync(async () => IdentityStats(await busy2.StatsAsync(), "busy").GetProperty("in_flight").GetInt32() == 1, "one call is done");
        await busy2.SendAsync(LineClient.Request(5, "svc.hold", "[5]"));
        Assert.Equal(5, (await provider.ServeOneAsync("5")).GetProperty("params")[0].GetInt32());
        Answer.IsResult(await busy2.ReadAsync(), "5");

        Assert.Equal(1, Refusals(await other.StatsAsync(), "in_flight"));
    }

    [Fact]
    public async Task MaxConnections_OneOverTheLimit_IsRefusedAndClosedAndFreedOnClose()
    {
        await using var server = await StartAsync(Quotas("single", new JsonRpcQuota { MaxConnections = 1 }), output);
        var first = await server.ConnectAsAsync("single-token", "single", "single.1");

        await using var second = await server.ConnectAsync();
        var data = IsRefusal(await second.CallAsync("authenticate", """{"token":"single-token"}"""), RouterErrorCodes.QuotaExceeded, "connections",
            key: null, value: null, "single");
        Assert.True(data.GetProperty("retry_after_ms").GetInt64() > 0);
        await second.AssertClosedAsync();

        // Other identities are not limited by it.
        await using var other1 = await server.ConnectAsAsync("other-token", "other");
        await using var other2 = await server.ConnectAsAsync("other-token", "other");

        var stats = await other1.StatsAsync();
        Assert.Equal(1, Refusals(stats, "connections"));

        await first.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the first connection is gone");
        await using var third = await server.ConnectAsAsync("single-token", "single", "single.1");
        Assert.Equal(1, IdentityStats(await third.StatsAsync(), "single").GetProperty("refusals").GetInt64()); // counted against single too
    }

    [Fact]
    public async Task UpdateSecurity_QuotaAdded_AppliesToConnectedIdentity()
    {
        await using var server = await StartAsync(Quotas("later", new JsonRpcQuota()), output);
        await using var provider = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await provider.ProvideAsync("svc.echo");
        var serving = ServeAllAsync(provider);
        await using var later = await server.ConnectAsAsync("later-token", "later");
        Assert.All(await CallManyAsync(later, "svc.echo", 10, 1), a => Assert.True(a.TryGetProperty("result", out _), a.ToString()));

        server.Router.UpdateSecurity(Quotas("later", new JsonRpcQuota { CallsPerSecond = 0.01, Burst = 2 }));

        var answers = await CallManyAsync(later, "svc.echo", 10, 100);
        Assert.Equal(2, answers.Count(static a => a.TryGetProperty("result", out _)));
        Assert.Equal(8, answers.Count(static a => a.TryGetProperty("error", out var e) && e.GetProperty("code").GetInt32() == RouterErrorCodes.QuotaExceeded));
        await provider.DisposeAsync();
        await serving.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task UpdateSecurity_RateChangedWhileCallsFlow_EveryCallAnswered()
    {
        static JsonRpcQuota Generous(int i) => new() { CallsPerSecond = 1_000_000 + (i % 2), Burst = 1_000_000 };
        await using var server = await StartAsync(Quotas("busy", Generous(0)), output);
        await using var provider = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await provider.ProvideAsync("svc.echo");
        var serving = ServeAllAsync(provider);
        await using var busy = await server.ConnectAsAsync("busy-token", "busy");

        // Each reload changes the rate, so the identity's token bucket is replaced while calls are taking from it.
        using var done = new CancellationTokenSource();
        var reloads = Task.Run(() =>
        {
            for (var i = 1; i <= 100_000 && !done.IsCancellationRequested; i++)
            {
                server.Router.UpdateSecurity(Quotas("busy", Generous(i)));
            }
        });
        var answers = new List<System.Text.Json.JsonElement>();
        for (var round = 0; round < 5; round++)
        {
            answers.AddRange(await CallManyAsync(busy, "svc.echo", 1000, 1 + (round * 1000)));
        }

        done.Cancel();
        await reloads.WaitAsync(TimeSpan.FromSeconds(15));
        Assert.All(answers, a => Assert.Equal(a.GetProperty("id").GetInt32(), a.GetProperty("result").GetInt32()));
        await provider.DisposeAsync();
        await serving.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task UpdateSecurity_TokenMovedToAnotherIdentityOrRemoved_ConnectionCountedForWhomItIsNow()
    {
        JsonRpcSecurityOptions Policy(string shared)
        {
            var security = new JsonRpcSecurityOptions();
            security.Tokens.Add(Token(shared, "shared-token"));
            security.Tokens.Add(Token("alpha", "alpha-token"));
            security.Tokens.Add(Token("ops", "ops-token"));
            security.Identities["alpha"] = new JsonRpcIdentityRules { Quota = new JsonRpcQuota { MaxConnections = 1 } };
            security.Identities["ops"] = new JsonRpcIdentityRules { Monitor = true };
            return security;
        }

        await using var server = await StartAsync(Policy("alpha"), output);
        await using var shared = await server.ConnectAsAsync("shared-token", "alpha");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops");

        // The token now authenticates omega: the connection is omega's, and alpha has a connection free again.
        server.Router.UpdateSecurity(Policy("omega"));
        var stats = await ops.StatsAsync();
        Assert.Equal(0, IdentityStats(stats, "alpha").GetProperty("connections").GetInt32());
        Assert.Equal(1, IdentityStats(stats, "omega").GetProperty("connections").GetInt32());
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha");

        // The token is gone: the connection is no one's.
        var without = Policy("omega");
        without.Tokens.RemoveAt(0);
        server.Router.UpdateSecurity(without);
        Assert.Equal(0, IdentityStats(await ops.StatsAsync(), "omega").GetProperty("connections").GetInt32());

        // Closing it later releases nothing twice.
        await shared.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the shared connection is gone");
        stats = await ops.StatsAsync();
        Assert.Equal(1, IdentityStats(stats, "alpha").GetProperty("connections").GetInt32());
        Assert.Equal(0, IdentityStats(stats, "omega").GetProperty("connections").GetInt32());
    }
}
