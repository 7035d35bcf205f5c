using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Server.Tests;

/// <summary><c>$/cancelRequest</c> through the router, with raw line clients: what is forwarded, to whom, and what is not.</summary>
public sealed class CancellationTests(ITestOutputHelper output)
{
    private static string Cancel(string idJson) => $$$"""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{{{idJson}}}}}""";

    private static string CancelOf(JsonElement forwarded) => Cancel(forwarded.GetProperty("id").GetRawText());

    /// <summary>Answers a forwarded call with <paramref name="member"/> (<c>"result":…</c> or <c>"error":…</c>).</summary>
    private static Task ReplyAsync(LineClient provider, JsonElement forwarded, string member)
        => provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{forwarded.GetProperty("id").GetRawText()}},{{member}}}""");

    /// <summary>A router with a provider of "work" and a caller.</summary>
    private async Task<Setup> StartAsync(Action<JsonRpcRouterOptions>? configure = null)
    {
        var server = await RouterServer.StartAsync(configure, output);
        return new Setup(server, await server.ConnectRegisteredAsync("p", "work"), await server.ConnectAsync());
    }

    private sealed record Setup(JsonRpc.Testing.RouterHost Server, LineClient Provider, LineClient Caller) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await Caller.DisposeAsync();
            await Provider.DisposeAsync();
            await Server.DisposeAsync();
        }
    }

    /// <summary>Sends a call the provider answers at once and checks that it is the next thing the provider sees.</summary>
    private static async Task AssertProviderSeesOnlyPingAsync(LineClient caller, LineClient provider)
    {
        await caller.SendAsync(LineClient.Request("ping", "work"));
        var next = await provider.ReadAsync();
        Assert.Equal("work", next.GetProperty("method").GetString());
        await ReplyAsync(provider, next, "\"result\":\"pong\"");
        var answer = await caller.ReadAsync();
        Assert.Equal("ping", answer.GetProperty("id").GetString());
        Answer.IsResult(answer, "\"pong\"");
    }

    [Theory]
    [InlineData("\"abc\"")]
    [InlineData("7")]
    [InlineData("\"\\u0061bc\"")]
    [InlineData("1.50")]
    [InlineData("null")]
    public async Task CancelRequest_OwnPendingCall_ForwardedUnderProvidersIdAndCallerGetsOneAnswer(string id)
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync($$"""{"jsonrpc":"2.0","id":{{id}},"method":"work"}""");
        var forwarded = await provider.ReadAsync();
        await caller.SendAsync(Cancel(id));

        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.False(cancel.TryGetProperty("id", out _), "the router's cancellation is a notification");
        Assert.Equal(forwarded.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());

        await ReplyAsync(provider, forwarded, "\"error\":{\"code\":-32800,\"message\":\"Request cancelled\"}");
        var answer = await caller.ReadLineAsync();
        Assert.Equal($$$"""{"jsonrpc":"2.0","id":{{{id}}},"error":{"code":-32800,"message":"Request cancelled"}}""", answer);
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
        Assert.Equal(1, (await caller.StatsAsync()).GetProperty("cancels_forwarded").GetInt64());
    }

    [Fact]
    public async Task CancelRequest_ProviderAnswersWithResultAnyway_CallerGetsThatResultOnly()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(5, "work"));
        var forwarded = await provider.ReadAsync();
        await caller.SendAsync(Cancel("5"));
        Assert.Equal("$/cancelRequest", (await provider.ReadAsync()).GetProperty("method").GetString());
        await ReplyAsync(provider, forwarded, "\"result\":42");
        Answer.IsResult(await caller.ReadAsync(), "42");
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
    }

    [Fact]
    public async Task CancelRequest_AnotherConnectionsCall_ChangesNothing()
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var owner = await server.ConnectAsync();
        await using var stranger = await server.ConnectAsync();

        await owner.SendAsync(LineClient.Request(1, "work"));
        var forwarded = await provider.ReadAsync();

        // The stranger names the owner's id, and the provider's own id for it: neither is the stranger's call.
        await stranger.SendAsync(Cancel("1"));
        await stranger.SendAsync(CancelOf(forwarded));
        await AssertProviderSeesOnlyPingAsync(stranger, provider);

        await ReplyAsync(provider, forwarded, "\"result\":1");
        Answer.IsResult(await owner.ReadAsync(), "1");
    }

    [Fact]
    public async Task CancelRequest_SameIdAsAnotherConnectionsPendingCall_ForwardsOnlyOwnCall()
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var owner = await server.ConnectAsync();
        await using var other = await server.ConnectAsync();

        await owner.SendAsync(LineClient.Request(1, "work"));
        var ownersCall = await provider.ReadAsync();
        await other.SendAsync(LineClient.Request(1, "work"));
        var othersCall = await provider.ReadAsync();

        // Both wait under id 1; the other's cancellation reaches its own call only, once.
        await other.SendAsync(Cancel("1"));
        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(othersCall.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());
        await AssertProviderSeesOnlyPingAsync(other, provider);

        await ReplyAsync(provider, ownersCall, "\"result\":\"owner\"");
        Answer.IsResult(await owner.ReadAsync(), "\"owner\"");
        await ReplyAsync(provider, othersCall, "\"error\":{\"code\":-32800,\"message\":\"Request cancelled\"}");
        Answer.IsError(await other.ReadAsync(), JsonRpcErrorCodes.RequestCancelled);
        Assert.Equal(1, (await owner.StatsAsync()).GetProperty("cancels_forwarded").GetInt64());
    }

    [Fact]
    public async Task CancelRequest_OthersHaveManyPendingCalls_ExaminesOnlyOwnCalls()
    {
        const int othersCalls = 50;
        await using var server = await RouterServer.StartAsync(output: output);
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var busy = await server.ConnectAsync();
        var caller = await server.ConnectAsync();

        // The busy client's calls reach the provider first, then the caller's (two connections are not ordered).
        var forwarded = new List<JsonElement>();
        for (var i = 0; i < othersCalls; i++)
        {
            await busy.SendAsync(LineClient.Request(i, "work"));
            forwarded.Add(await provider.ReadAsync());
        }

        foreach (var id in new[] { 1, 2 })
        {
            await caller.SendAsync(LineClient.Request(id, "work"));
            forwarded.Add(await provider.ReadAsync());
        }

        var counters = server.Router.Counters;
        var before = Volatile.Read(ref counters.CallsExaminedByCancels);
        await caller.SendAsync(Cancel("99"));
        await caller.SendAsync(Cancel("3")); // one of the busy client's ids, not the caller's
        await AssertProviderSeesOnlyPingAsync(caller, provider);
        Assert.Equal(before + 4, Volatile.Read(ref counters.CallsExaminedByCancels));

        // Its disconnect walks the same two calls, and tells the provider about those two only.
        await caller.DisposeAsync();
        var cancelled = new HashSet<long>();
        for (var i = 0; i < 2; i++)
        {
            cancelled.Add((await provider.ReadAsync()).GetProperty("params").GetProperty("id").GetInt64());
        }

        Assert.Equal(before + 6, Volatile.Read(ref counters.CallsExaminedByCancels));
        Assert.Equal(forwarded.Skip(othersCalls).Select(f => f.GetProperty("id").GetInt64()).ToHashSet(), cancelled);
        foreach (var call in forwarded.Take(othersCalls))
        {
            await ReplyAsync(provider, call, "\"result\":0");
            Answer.IsResult(await busy.ReadAsync(), "0");
        }
    }

    [Fact]
    public async Task CancelRequest_FloodForUnknownId_OthersCallsAllAnsweredAndEachCancelExaminesOneCall()
    {
        const int cancels = 100_000;
        const int chunk = 1_000;
        const int calls = 200;
        var bound = TimeSpan.FromSeconds(120); // generous: a loaded 2-core machine; it takes about a second when idle
        await using var server = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMinutes(5)); // no log per cancel
        await using var holder = await server.ConnectRegisteredAsync("h", "hold");
        await using var worker = await server.ConnectRegisteredAsync("w", "work");
        await using var flooder = await server.ConnectAsync();
        await using var caller = await server.ConnectAsync();

        await flooder.SendAsync(LineClient.Request("held", "hold"));
        var held = await holder.ReadAsync();
        var counters = server.Router.Counters;
        var before = Volatile.Read(ref counters.CallsExaminedByCancels);

        var lines = System.Text.Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat(Cancel("\"unknown\"") + "\n", chunk)));
        var flood = Task.Run(async () =>
        {
            for (var i = 0; i < cancels / chunk; i++)
            {
                await flooder.SendRawAsync(lines);
            }
        });
        var serve = Task.Run(async () =>
        {
            for (var i = 0; i < calls; i++)
            {
                await worker.ServeOneAsync(i.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        });
        var call = Task.Run(async () =>
        {
            for (var i = 0; i < calls; i++)
            {
                await caller.SendAsync(LineClient.Request(i, "work"));
                var answer = await caller.ReadAsync();
                Assert.Equal(i, answer.GetProperty("id").GetInt32());
                Answer.IsResult(answer, i.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        });
        await Task.WhenAll(flood, serve, call).WaitAsync(bound);

        // The flooder's read loop is in order: once its stats call is answered, every cancellation has been handled.
        var stats = (await flooder.CallAsync("get_server_stats")).GetProperty("result");
        Assert.Equal(0, stats.GetProperty("cancels_forwarded").GetInt64());
        Assert.Equal(before + cancels, Volatile.Read(ref counters.CallsExaminedByCancels));
        await holder.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
        await ReplyAsync(holder, held, "\"result\":\"kept\"");
        Answer.IsResult(await flooder.ReadAsync(), "\"kept\"");
    }

    [Fact]
    public async Task CancelRequest_UnknownOrFinishedId_ChangesNothing()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(1, "work"));
        await provider.ServeOneAsync("1");
        Answer.IsResult(await caller.ReadAsync(), "1");

        await caller.SendAsync(LineClient.Request(2, "work"));
        var pending = await provider.ReadAsync();
        await caller.SendAsync(Cancel("1"));        // finished
        await caller.SendAsync(Cancel("99"));       // never sent
        await caller.SendAsync(Cancel("\"2\""));    // a string is not the number 2
        await AssertProviderSeesOnlyPingAsync(caller, provider);
        await ReplyAsync(provider, pending, "\"result\":2");
        Answer.IsResult(await caller.ReadAsync(), "2");
    }

    [Fact]
    public async Task CancelRequest_ProviderSendsOne_Ignored()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(3, "work"));
        var forwarded = await provider.ReadAsync();
        await provider.SendAsync(CancelOf(forwarded));
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
        await ReplyAsync(provider, forwarded, "\"result\":3");
        Answer.IsResult(await caller.ReadAsync(), "3");
    }

    [Fact]
    public async Task CancelRequest_CallInsideBatch_ForwardedForThatCallOnly()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync($$"""[{{LineClient.Request("a", "work")}},{{LineClient.Request("b", "work")}}]""");
        var first = await provider.ReadAsync();
        var second = await provider.ReadAsync();
        await caller.SendAsync(Cancel("\"b\""));
        var cancel = await provider.ReadAsync();
        Assert.Equal(second.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());

        await ReplyAsync(provider, second, "\"error\":{\"code\":-32800,\"message\":\"Request cancelled\"}");
        await ReplyAsync(provider, first, "\"result\":\"A\"");
        var batch = JsonDocument.Parse((await caller.ReadLineAsync())!).RootElement;
        Assert.Equal(2, batch.GetArrayLength());
        var byId = batch.EnumerateArray().ToDictionary(e => e.GetProperty("id").GetString()!);
        Answer.IsResult(byId["a"], "\"A\"");
        Answer.IsError(byId["b"], JsonRpcErrorCodes.RequestCancelled);
    }

    [Fact]
    public async Task CancelRequest_InsideBatchWithTheCall_Forwarded()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync($$"""[{{LineClient.Request("a", "work")}},{{Cancel("\"a\"")}}]""");
        var forwarded = await provider.ReadAsync();
        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(forwarded.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());
    }

    [Fact]
    public async Task CancelRequest_SentAsRequest_IsInvalidRequestAndCancelsNothing()
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(1, "work"));
        var forwarded = await provider.ReadAsync();
        await caller.SendAsync(LineClient.Request(2, "$/cancelRequest", """{"id":1}"""));
        var answer = await caller.ReadAsync();
        Assert.Equal(2, answer.GetProperty("id").GetInt32());
        Answer.IsError(answer, JsonRpcErrorCodes.InvalidRequest);
        await AssertProviderSeesOnlyPingAsync(caller, provider);
        await ReplyAsync(provider, forwarded, "\"result\":1");
        Answer.IsResult(await caller.ReadAsync(), "1");
    }

    [Theory]
    [InlineData(null)]
    [InlineData("[1]")]
    [InlineData("{}")]
    [InlineData("{\"id\":{\"x\":1}}")]
    [InlineData("{\"id\":[1]}")]
    [InlineData("{\"id\":true}")]
    [InlineData("{\"other\":1}")]
    public async Task CancelRequest_BadParams_IgnoredWithoutAnswer(string? @params)
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(1, "work"));
        var forwarded = await provider.ReadAsync();
        await caller.SendAsync(LineClient.Notification("$/cancelRequest", @params));
        await AssertProviderSeesOnlyPingAsync(caller, provider);
        await ReplyAsync(provider, forwarded, "\"result\":1");
        Answer.IsResult(await caller.ReadAsync(), "1");
    }

    [Theory]
    [InlineData("1")]
    [InlineData("\"x\"")]
    [InlineData("{\"id\":1,\"id\":2}")]
    public async Task CancelRequest_InvalidMessage_AnsweredInvalidRequestWithNullId(string @params)
    {
        await using var setup = await StartAsync();
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(1, "work"));
        var forwarded = await provider.ReadAsync();
        await caller.SendAsync(LineClient.Notification("$/cancelRequest", @params));
        var error = await caller.ReadAsync();
        Answer.IsError(error, JsonRpcErrorCodes.InvalidRequest);
        Assert.Equal(JsonValueKind.Null, error.GetProperty("id").ValueKind);
        await AssertProviderSeesOnlyPingAsync(caller, provider);
        await ReplyAsync(provider, forwarded, "\"result\":1");
        Answer.IsResult(await caller.ReadAsync(), "1");
    }

    [Fact]
    public async Task CallTimeout_ProviderStillWorking_GetsCancelRequestForIt()
    {
        await using var setup = await StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300));
        var (server, provider, caller) = (setup.Server, setup.Provider, setup.Caller);

        await caller.SendAsync(LineClient.Request(1, "work"));
        var forwarded = await provider.ReadAsync();
        Answer.IsError(await caller.ReadAsync(), RouterErrorCodes.CallTimeout);
        var cancel = await provider.ReadAsync();
        Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
        Assert.Equal(forwarded.GetProperty("id").GetInt64(), cancel.GetProperty("params").GetProperty("id").GetInt64());

        // The provider's late answer is dropped: the caller had its one answer.
        await ReplyAsync(provider, forwarded, "\"error\":{\"code\":-32800,\"message\":\"Request cancelled\"}");
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
    }

    [Fact]
    public async Task CallerDisconnects_ProviderGetsCancelRequestForEachOfItsCalls()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var other = await server.ConnectAsync();
        var caller = await server.ConnectAsync();

        // One at a time: two connections' calls may reach the provider in either order.
        var ids = new HashSet<long>();
        foreach (var id in new[] { 1, 2 })
        {
            await caller.SendAsync(LineClient.Request(id, "work"));
            ids.Add((await provider.ReadAsync()).GetProperty("id").GetInt64());
        }

        await other.SendAsync(LineClient.Request(3, "work"));
        var othersId = (await provider.ReadAsync()).GetProperty("id").GetInt64();

        await caller.DisposeAsync();
        var cancelled = new HashSet<long>();
        for (var i = 0; i < 2; i++)
        {
            var cancel = await provider.ReadAsync();
            Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
            cancelled.Add(cancel.GetProperty("params").GetProperty("id").GetInt64());
        }

        Assert.Equal(ids, cancelled);
        Assert.DoesNotContain(othersId, cancelled);
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{othersId}},"result":3}""");
        Answer.IsResult(await other.ReadAsync(), "3");
    }

    [Fact]
    public async Task CancelRequest_HostMethodCall_FiresHandlerTokenAndAnswersRequestCancelled()
    {
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cancelled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = await RouterServer.StartAsync(setup: router => router.AddMethod("slow", async (CancellationToken ct) =>
        {
            started.TrySetResult();
            try
            {
                await Task.Delay(TimeSpan.FromSeconds(30), ct);
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                cancelled.TrySetResult();
                throw;
            }

            return 1;
        }));
        await using var caller = await server.ConnectAsync();
        await using var stranger = await server.ConnectAsync();

        await caller.SendAsync(LineClient.Request("h1", "slow"));
        await started.Task.WaitAsync(LineClient.ReadTimeout);
        await stranger.SendAsync(Cancel("\"h1\""));
        await caller.AssertSilentAsync(TimeSpan.FromMilliseconds(200));
        Assert.False(cancelled.Task.IsCompleted, "another connection cancelled the call");

        await caller.SendAsync(Cancel("\"h1\""));
        await cancelled.Task.WaitAsync(LineClient.ReadTimeout);
        var answer = await caller.ReadAsync();
        Assert.Equal("h1", answer.GetProperty("id").GetString());
        Answer.IsError(answer, JsonRpcErrorCodes.RequestCancelled);
    }

    [Theory]
    [InlineData("register_method", "method")]
    [InlineData("subscribe", "event")]
    public async Task ReservedPrefix_RegisterOrSubscribe_IsRefused(string builtIn, string key)
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectRegisteredAsync("c");
        foreach (var name in new[] { "$/cancelRequest", "$/progress" })
        {
            Answer.IsError(await client.CallAsync(builtIn, $$"""{"{{key}}":"{{name}}"}"""), RouterErrorCodes.MethodReserved);
        }
    }

    [Fact]
    public async Task ReservedPrefix_HostMethod_Throws()
    {
        await using var server = await RouterServer.StartAsync();
        Assert.Throws<ArgumentException>(() => server.Router.AddMethod("$/cancelRequest", () => 1));
        Assert.Throws<ArgumentException>(() => server.Router.AddMethod("$/other", () => 1));
    }
}
