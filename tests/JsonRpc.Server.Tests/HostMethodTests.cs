using System.Diagnostics.Metrics;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Server.Tests;

public sealed partial class HostMethodTests
{
    [JsonSerializable(typeof(long))]
    [JsonSerializable(typeof(int[]))]
    [JsonSerializable(typeof(int))]
    [JsonSerializable(typeof(string))]
    [JsonSerializable(typeof(JsonElement))]
    private sealed partial class Context : JsonSerializerContext;

    private static void AddMethods(JsonRpcRouter router)
    {
        router.AddMethod("time", () => 1_700_000_000L, Context.Default.Int64);
        router.AddMethod("sum", async (int[] values, CancellationToken ct) =>
        {
            await Task.Delay(20, ct);
            return values.Sum();
        }, Context.Default.Int32Array, Context.Default.Int32);
    }

    [Fact]
    public async Task ServerMethod_IsServedLikeAnyOther()
    {
        await using var server = await RouterServer.StartAsync(setup: AddMethods);
        await using var client = await server.ConnectAsync();

        Answer.IsResult(await client.CallAsync("time"), "1700000000");
        Answer.IsResult(await client.CallAsync("sum", "[1,2,3]"), "6");
        Answer.IsError(await client.CallAsync("sum", "{\"bad\":true}"), -32602);
        await client.SendAsync("""{"jsonrpc":"2.0","id":"s","method":"time"}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"s","result":1700000000}""", await client.ReadLineAsync());
        Assert.Equal(4, server.Router.GetStats().ServerCalls);
    }

    [Fact]
    public async Task ServerMethod_ProgressToACallerThatIsNotReading_IsDropped_NotQueuedPastTheBound_AndTheConnectionLives()
    {
        const int Reports = 4000;
        var report = new string('x', 8 * 1024);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = await RouterServer.StartAsync(
            configure: options => (options.MaxMessageSize, options.MaxOutboundBufferSize) = (64 * 1024, 64 * 1024),
            setup: router =>
            {
                AddMethods(router);
                router.Methods.AddWithContext("flood", (JsonElement _, JsonRpc.Dispatch.JsonRpcCallContext call) =>
            {
                var progress = call.CreateProgress(Context.Default.String)!;
                for (var i = 0; i < Reports; i++)
                {
                    progress.Report(report);
                }

                done.TrySetResult();
                return new ValueTask<int>(Reports);
            }, Context.Default.JsonElement, Context.Default.Int32);
            });
        await using var client = await server.ConnectAsync();

        // 32 MiB of reports while the caller reads nothing: far past the 64 KiB bound and what the sockets hold.
        await client.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"flood","params":{"workDoneToken":"t"}}""");
        await done.Task.Within();

        var progress = 0;
        while (true)
        {
            var line = await client.ReadLineAsync();
            Assert.NotNull(line);
            if (line.Contains("\"$/progress\""))
            {
                Assert.StartsWith("""{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":"xx""", line);
                progress++;
                continue;
            }

            Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":4000}""", line);
            break;
        }

        Assert.InRange(progress, 1, Reports - 1);
        Answer.IsResult(await client.CallAsync("time"), "1700000000");
    }

    [Fact]
    public async Task ServerMethod_InBatchBesideRoutedCall_AnswersInOneBatch()
    {
        await using var server = await RouterServer.StartAsync(setup: AddMethods);
        await using var provider = await server.ConnectRegisteredAsync("p", "remote");
        await using var client = await server.ConnectAsync();

        await client.SendAsync("""[{"jsonrpc":"2.0","id":1,"method":"sum","params":[[2,2]]},{"jsonrpc":"2.0","id":2,"method":"remote"},{"jsonrpc":"2.0","method":"time"}]""".Replace("[[2,2]]", "[2,2]"));
        await provider.ServeOneAsync("\"r\"");
        var reply = await client.ReadAsync();
        var byId = reply.EnumerateArray().ToDictionary(e => e.GetProperty("id").GetInt32());
        Assert.Equal(2, byId.Count);
        Answer.IsResult(byId[1], "4");
        Answer.IsResult(byId[2], "\"r\"");
    }

    [Fact]
    public async Task ServerMethod_CallerDisconnects_HandlerIsCancelled()
    {
        var cancelled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = await RouterServer.StartAsync(setup: router => router.AddMethod("wait", async (int[] _, CancellationToken ct) =>
        {
            started.TrySetResult();
            try
            {
                await Task.Delay(Timeout.Infinite, ct);
            }
            catch (OperationCanceledException)
            {
                cancelled.TrySetResult();
                throw;
            }

            return 0;
        }, Context.Default.Int32Array, Context.Default.Int32));
        var client = await server.ConnectAsync();
        await client.SendAsync(LineClient.Request(1, "wait", "[]"));
        await started.Task.WaitAsync(TimeSpan.FromSeconds(5));
        await client.DisposeAsync();
        await cancelled.Task.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task ServerMethod_ListedAndReserved()
    {
        await using var server = await RouterServer.StartAsync(setup: AddMethods);
        await using var client = await server.ConnectRegisteredAsync("c", "add");
        var list = (await client.CallAsync("list_methods")).GetProperty("result").GetRawText();
        Assert.Equal("""[{"method":"add","providers":["c"]},{"method":"sum","providers":[],"server":true},{"method":"time","providers":[],"server":true}]""", list);
        Answer.IsError(await client.CallAsync("register_method", """{"method":"time"}"""), RouterErrorCodes.MethodReserved);
        Assert.Throws<ArgumentException>(() => server.Router.AddMethod("keepAlive", () => 1L, Context.Default.Int64));
    }

    [Fact]
    public async Task GetServerStats_CountsTraffic()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "w");
        await using var client = await server.ConnectAsync();
        await client.SendAsync(LineClient.Request(1, "w"));
        await provider.ServeOneAsync("1");
        await client.ReadAsync();
        await client.CallAsync("nothing");

        var stats = await client.StatsAsync();
        Assert.Equal(2, stats.GetProperty("connections").GetInt64());
        Assert.Equal(1, stats.GetProperty("registered_clients").GetInt64());
        Assert.Equal(1, stats.GetProperty("methods").GetInt64());
        Assert.Equal(1, stats.GetProperty("providers").GetInt64());
        Assert.Equal(1, stats.GetProperty("calls_routed").GetInt64());
        Assert.Equal(1, stats.GetProperty("errors").GetInt64());
        Assert.Equal(0, stats.GetProperty("timeouts").GetInt64());
        Assert.Equal(0, stats.GetProperty("pending_calls").GetInt64());
        // register_client, register_method, w, its answer, nothing, get_server_stats
        Assert.Equal(6, stats.GetProperty("messages_in").GetInt64());
        Assert.True(stats.GetProperty("bytes_in").GetInt64() > 200);
        Assert.True(stats.GetProperty("bytes_out").GetInt64() > 100);
        Assert.True(stats.GetProperty("uptime_ms").GetInt64() >= 0);
        foreach (var name in new[] { "messages_out", "connections_total", "subscriptions", "notifications_routed", "events_published", "events_delivered", "server_calls", "answers_dropped", "connections_rejected" })
        {
            Assert.True(stats.TryGetProperty(name, out _), name);
        }
    }

    [Fact]
    public async Task Meter_ReportsTheSameCounters()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "w");
        await using var client = await server.ConnectAsync();
        await client.SendAsync(LineClient.Request(1, "w"));
        await provider.ServeOneAsync("1");
        await client.ReadAsync();

        var seen = new Dictionary<string, double>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "JsonRpc.Router" && instrument.Meter.Scope == server.Services.GetService(typeof(IMeterFactory)))
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, _, _) => seen[instrument.Name] = value);
        listener.SetMeasurementEventCallback<double>((instrument, value, _, _) => seen[instrument.Name] = value);
        listener.Start();
        listener.RecordObservableInstruments();

        var stats = server.Router.GetStats();
        Assert.Equal(stats.Connections, seen["jsonrpc.router.connections"]);
        Assert.Equal(stats.CallsRouted, seen["jsonrpc.router.calls.routed"]);
        Assert.Equal(1, seen["jsonrpc.router.calls.routed"]);
        Assert.Equal(stats.Methods, seen["jsonrpc.router.methods"]);
        Assert.Equal(stats.RegisteredClients, seen["jsonrpc.router.clients"]);
        Assert.True(seen["jsonrpc.router.bytes.received"] > 0);
        Assert.True(seen.ContainsKey("jsonrpc.router.answers.dropped"));
        Assert.True(seen.ContainsKey("jsonrpc.router.calls.timeouts"));
    }
}
