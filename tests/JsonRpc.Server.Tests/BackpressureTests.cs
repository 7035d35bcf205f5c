using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using JsonRpc.Protocol;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The router pushes back on a client instead of working for it without end: it stops reading one whose answers pile
/// up unread (and drops it when it takes nothing at all), and reads a client that sends invalid messages more slowly.
/// </summary>
public sealed class BackpressureTests(ITestOutputHelper output)
{
    [Fact]
    public async Task NonReadingCaller_RouterStopsReadingIt_ThenDropsIt_OthersServed()
    {
        const int Bound = 256 * 1024;
        await using var server = await StartWithEchoAsync(Bound);
        await using var other = await server.ConnectAsync();
        await using var flooder = await server.ConnectAsync();
        flooder.Socket.ReceiveBufferSize = 4096;
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the router has both connections");

        // The flooder writes 1 KB echo calls and reads nothing, from a task of its own (its writes block once the
        // router stops reading it).
        var call = Encoding.UTF8.GetBytes(LineClient.Request(1, "echo", $"[\"{new string('f', 1000)}\"]") + "\n");
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        long written = 0;
        var flooding = Task.Run(async () =>
        {
            try
            {
                while (!stop.IsCancellationRequested)
                {
                    await flooder.Socket.SendAsync(call, SocketFlags.None, stop.Token);
                    Interlocked.Add(ref written, call.Length);
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
            }
        });

        // The router pauses (once the kernel's socket buffers are full too): bytes in stop growing for half a second
        // while the flooder is still connected and still trying to write.
        await Eventually.TrueAsync(() => server.Router.GetStats().ReadPauses > 0, "the router stops reading the flooder");
        var bytesIn = -1L;
        await Eventually.TrueAsync(async () =>
        {
            var before = server.Router.GetStats().BytesIn;
            await Task.Delay(500);
            var stats = server.Router.GetStats();
            bytesIn = stats.BytesIn;
            return before == stats.BytesIn && stats.Connections == 2;
        }, "the router reads nothing more from the flooder while it is still connected", TimeSpan.FromSeconds(30));
        output.WriteLine($"paused after {bytesIn:N0} bytes in; the flooder wrote {Interlocked.Read(ref written):N0}");
        Assert.True(Interlocked.Read(ref written) > bytesIn, "the flooder did not write more than the router read: nothing was held back");

        // Meanwhile another client is served at once.
        Answer.IsResult(await other.CallAsync("echo", "[\"still here\"]"), "[\"still here\"]");

        // It takes nothing for the progress timeout: dropped, as a client that does not read.
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 1, "the flooder is dropped", TimeSpan.FromSeconds(30));
        await stop.CancelAsync();
        await flooding.WaitAsync(TimeSpan.FromSeconds(10));
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task PipeliningCallerThatReads_PausedAndResumed_EveryCallAnsweredOnce()
    {
        // A caller that writes far more than the bound in one go, but reads everything: paused while its answers wait,
        // resumed as it takes them, never dropped, and every call answered once.
        const int Bound = 128 * 1024;
        await using var server = await StartWithEchoAsync(Bound);
        await using var caller = await server.ConnectAsync();
        const int Calls = 2000; // 2 MB of calls and of answers: sixteen times the bound
        var payload = new string('p', 1000);
        var batch = new StringBuilder();
        for (var id = 1; id <= Calls; id++)
        {
            batch.Append(LineClient.Request(id, "echo", $"[\"{payload}\"]")).Append('\n');
        }

        var writing = caller.SendRawAsync(Encoding.UTF8.GetBytes(batch.ToString()));
        var seen = new HashSet<int>();
        for (var i = 0; i < Calls; i++)
        {
            var answer = await caller.ReadAsync();
            Assert.True(seen.Add(answer.GetProperty("id").GetInt32()), "an answer came twice");
            Assert.Equal(payload, answer.GetProperty("result")[0].GetString());
        }

        await writing;
        Assert.Equal(Calls, seen.Count);
        Assert.True(server.Router.GetStats().ReadPauses > 0, "the caller was never paused: the test proves nothing");
        Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task FastCaller_SlowProviderThatReads_CallerSlowedToItsPace_ProviderNeverDropped()
    {
        // A caller writes 16 MB of calls at once to a provider that reads and answers them at about 2,000 a second: past
        // what the sockets buffer, the provider's queue would pass twice its 128 KB bound at once, and a provider that
        // reads all along would be dropped. The router instead stops reading the caller while the provider is behind.
        const int Bound = 128 * 1024;
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = Bound;
            o.MaxPendingCallsPerConnection = 10_000;
            o.CallTimeout = TimeSpan.FromSeconds(60);
        }, output);
        await using var provider = await server.ConnectRegisteredAsync("slow-provider", "work");
        await using var caller = await server.ConnectAsync();
        const int Calls = 4000;
        var payload = new string('w', 4000);
        var requests = new StringBuilder();
        for (var id = 1; id <= Calls; id++)
        {
            requests.Append(LineClient.Request(id, "work", $"[\"{payload}\"]")).Append('\n');
        }

        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        var serving = Task.Run(async () =>
        {
            for (var served = 0; served < Calls; served++)
            {
                var request = await provider.ReadAsync(TimeSpan.FromSeconds(60));
                await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":{{served}}}""");
                if (served % 4 == 3)
                {
                    await Task.Delay(2, stop.Token);
                }
            }
        });
        var writing = caller.SendRawAsync(Encoding.UTF8.GetBytes(requests.ToString()));
        var answered = new HashSet<int>();
        for (var i = 0; i < Calls; i++)
        {
            var answer = await caller.ReadAsync(TimeSpan.FromSeconds(60));
            Assert.True(answer.TryGetProperty("result", out _), $"call {i}: {answer}");
            Assert.True(answered.Add(answer.GetProperty("id").GetInt32()));
        }

        await writing.WaitAsync(TimeSpan.FromSeconds(60));
        await serving.WaitAsync(TimeSpan.FromSeconds(60));
        var stats = server.Router.GetStats();
        Assert.Equal(2, stats.Connections);
        Assert.True(stats.ReadPauses > 0, "the caller was never paused: the test proves nothing");
    }

    [Fact]
    public async Task ProviderReleasingEveryAnswerAtOnce_CallerThatReads_NeverDropped_ProviderNotDropped()
    {
        // A caller has 300 calls waiting at a provider that holds them all, then sends their 128 KB answers at once:
        // 38 MB, past what the sockets buffer and far past the caller's 1 MB bound. The caller starts reading a moment
        // later and reads everything. It must get every answer once and stay connected: answers to its own calls pass
        // its bound while it reads at all (before, past twice the bound it was dropped as a slow reader).
        const int Bound = 1024 * 1024;
        const int Calls = 300;
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 256 * 1024;
            o.MaxOutboundBufferSize = Bound;
            o.CallTimeout = TimeSpan.FromSeconds(120);
        }, output);
        await using var provider = await server.ConnectRegisteredAsync("holder", "hold");
        await using var caller = await server.ConnectAsync();
        var requests = new StringBuilder();
        for (var id = 1; id <= Calls; id++)
        {
            requests.Append(LineClient.Request(id, "hold", "[]")).Append('\n');
        }

        await caller.SendRawAsync(Encoding.UTF8.GetBytes(requests.ToString()));
        var answers = new StringBuilder();
        for (var i = 0; i < Calls; i++)
        {
            var request = await provider.ReadAsync(TimeSpan.FromSeconds(60));
            answers.Append($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"{{new string('a', 128 * 1024)}}"}""").Append('\n');
        }

        // Sent from a task: the router stops reading the provider while the caller is behind, so this write blocks.
        var releasing = provider.Socket.SendAsync(Encoding.UTF8.GetBytes(answers.ToString()), SocketFlags.None);
        await Task.Delay(500);
        var answered = new HashSet<int>();
        for (var i = 0; i < Calls; i++)
        {
            var answer = await caller.ReadAsync(TimeSpan.FromSeconds(60));
            Assert.Equal(128 * 1024, answer.GetProperty("result").GetString()!.Length);
            Assert.True(answered.Add(answer.GetProperty("id").GetInt32()), $"answer {i} came twice");
        }

        await releasing.WaitAsync(TimeSpan.FromSeconds(60));
        Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
        await caller.SendAsync(LineClient.Request(Calls + 1, "hold", "[]"));
        await provider.ServeOneAsync("7");
        Answer.IsResult(await caller.ReadAsync(), "7");
        var stats = server.Router.GetStats();
        Assert.Equal(2, stats.Connections);
    }

    [Fact]
    public async Task RequestIdLongerThanTheRouterTakes_InvalidRequestWithNullId_ConnectionServesOn()
    {
        await using var server = await StartWithEchoAsync(256 * 1024);
        await using var client = await server.ConnectAsync();
        var longId = new string('i', 2000);

        await client.SendAsync(LineClient.Request(longId, "echo", "[1]"));
        var answer = await client.ReadAsync();
        Assert.Equal(System.Text.Json.JsonValueKind.Null, answer.GetProperty("id").ValueKind);
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, answer.GetProperty("error").GetProperty("code").GetInt32());
        Assert.Contains("at most 1024 bytes", answer.GetProperty("error").GetProperty("data").GetString(), StringComparison.Ordinal);

        // In a batch, only that element is refused; an id of 1,024 bytes (its quotes included) is taken.
        var fits = new string('k', 1022);
        await client.SendAsync($"[{LineClient.Request(longId, "echo", "[2]")},{LineClient.Request(fits, "echo", "[3]")}]");
        var batch = await client.ReadAsync();
        Assert.Equal(2, batch.GetArrayLength());
        Assert.Contains(batch.EnumerateArray(), e => e.GetProperty("id").ValueKind == System.Text.Json.JsonValueKind.Null
            && e.GetProperty("error").GetProperty("code").GetInt32() == JsonRpcErrorCodes.InvalidRequest);
        Assert.Contains(batch.EnumerateArray(), e => e.GetProperty("id").ValueKind == System.Text.Json.JsonValueKind.String
            && e.GetProperty("id").GetString() == fits && e.GetProperty("result").GetRawText() == "[3]");
        Answer.IsResult(await client.CallAsync("echo", "[4]"), "[4]");
    }

    [Fact]
    public async Task InvalidMessages_EachDelaysTheNextRead_AllStillAnswered()
    {
        await using var server = await RouterServer.StartAsync(configure: null, output);
        await using var client = await server.ConnectAsync();
        const int Invalid = 30;
        var messages = new StringBuilder();
        for (var id = 1; id <= Invalid; id++)
        {
            messages.Append("{\"jsonrpc\":\"2.0\",\"id\":").Append(id).Append(",\"params\":[1]}\n"); // no method: invalid request
        }

        // One write holds all of them, the next read comes after their penalty: 30 × 20 ms at the least.
        var started = Stopwatch.GetTimestamp();
        await client.SendRawAsync(Encoding.UTF8.GetBytes(messages.ToString()));
        for (var id = 1; id <= Invalid; id++)
        {
            var answer = await client.ReadAsync();
            Answer.IsError(answer, JsonRpcErrorCodes.InvalidRequest);
            Assert.Equal(id, answer.GetProperty("id").GetInt32());
        }

        Answer.IsResult(await client.CallAsync("keepAlive"), "true");
        var elapsed = Stopwatch.GetElapsedTime(started);
        Assert.True(elapsed >= TimeSpan.FromMilliseconds(Invalid * 20 * 0.9), $"answered after {elapsed.TotalMilliseconds:N0} ms: invalid messages did not slow the reads");
        Assert.True((await client.StatsAsync()).GetProperty("read_pauses").GetInt64() > 0);
    }

    [Fact]
    public async Task OversizeSenderConnectingAgain_EachNewConnectionWaitsLonger_ClientsAlreadyConnectedServed()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxPenaltyDelay = TimeSpan.FromSeconds(30);
        }, output);
        await using var other = await server.ConnectAsync(); // connected before any misbehaviour, from the same address
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
        var oversized = $$"""{"jsonrpc":"2.0","id":1,"method":"x","params":["{{new string('a', 100_000)}}"]}""";

        // Four connections from 127.0.0.1 in a row, each dropped for an oversized message: 50, 100, then 200 ms of
        // waiting before the next one is read, and 400 ms before the fifth.
        for (var attempt = 1; attempt <= 4; attempt++)
        {
            await using var hostile = await server.ConnectAsync();
            await hostile.SendAsync(oversized);
            Answer.IsError(await hostile.ReadAsync(), RouterErrorCodes.MessageTooLarge);
            await hostile.AssertClosedAsync();
            await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 1, "the router has closed the hostile connection");
        }

        var pausesBefore = server.Router.GetStats().ReadPauses;
        var started = Stopwatch.GetTimestamp();
        await using var fifth = await server.ConnectAsync();
        await fifth.SendAsync(LineClient.Request(7, "keepAlive"));

        // While the fifth waits, the client that was connected all along is answered as before.
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
        var answer = await fifth.ReadAsync();
        var elapsed = Stopwatch.GetElapsedTime(started);
        Answer.IsResult(answer, "true");
        Assert.True(elapsed >= TimeSpan.FromMilliseconds(400 * 0.9), $"the fifth connection was read after {elapsed.TotalMilliseconds:N0} ms: its address earned no wait");
        Assert.True(server.Router.GetStats().ReadPauses > pausesBefore, "the wait is not counted in read_pauses");
        output.WriteLine($"the fifth connection was answered after {elapsed.TotalMilliseconds:N0} ms");
    }

    [Fact]
    public async Task WrongAccessToken_CountsAgainstTheAddress_RightTokenStillSignsIn()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.AccessToken = "right";
            o.MaxPenaltyDelay = TimeSpan.FromSeconds(30);
        }, output);
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            await using var guesser = await server.ConnectAsync();
            Answer.IsError(await guesser.CallAsync("register_client", """{"name":"guess","token":"wrong"}"""), RouterErrorCodes.AccessDenied);
            await guesser.AssertClosedAsync();
            await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 0, "the router has closed the guesser");
        }

        // Three wrong tokens: the next connection from the address waits 200 ms, then signs in with the right one.
        var started = Stopwatch.GetTimestamp();
        await using var client = await server.ConnectAsync();
        await client.RegisterAsync("client", "right");
        var elapsed = Stopwatch.GetElapsedTime(started);
        Assert.True(elapsed >= TimeSpan.FromMilliseconds(200 * 0.9), $"signed in after {elapsed.TotalMilliseconds:N0} ms: wrong tokens earned no wait");
    }

    [Fact]
    public async Task Slowloris_MessageTricklingInForLongerThanKeepAlive_Closed_OthersServed()
    {
        await using var server = await RouterServer.StartAsync(o => o.KeepAliveTimeout = TimeSpan.FromSeconds(1), output);
        await using var other = await server.ConnectAsync();
        await using var slow = await server.ConnectAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the router has both connections");

        // One byte every 100 ms: never silent for the keep-alive timeout, never a whole message. Bounded: 30 s.
        var message = Encoding.UTF8.GetBytes(LineClient.Request(1, "keepAlive", "[\"" + new string('x', 1000) + "\"]"));
        var closed = false;
        for (var i = 0; i < 300 && !closed; i++)
        {
            try
            {
                await slow.SendRawAsync(message[(i % (message.Length - 1))..((i % (message.Length - 1)) + 1)]);
            }
            catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or ObjectDisposedException)
            {
                closed = true;
            }

            closed |= server.Router.GetStats().Connections == 1;
            await Task.Delay(100);
            if (i % 3 == 0)
            {
                Answer.IsResult(await other.CallAsync("keepAlive"), "true"); // the other client is served meanwhile
            }
        }

        Assert.True(closed, "a message trickling in for 30 s was never cut off");
        var answer = await slow.ReadAsync();
        Answer.IsError(answer, RouterErrorCodes.IdleTimeout);
        Assert.Contains("took longer than", answer.GetProperty("error").GetProperty("data").GetString());
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
    }

    /// <summary>A router whose outbound bound is <paramref name="bound"/> and which serves <c>echo</c> itself.</summary>
    private async Task<RouterHost> StartWithEchoAsync(int bound)
    {
        var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = bound;
        }, output);
        server.Router.Methods.AddRaw("echo", static (parameters, _) => new ValueTask<RawJson>(parameters.Detach()));
        return server;
    }
}
