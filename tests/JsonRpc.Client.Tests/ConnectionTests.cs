using System.Collections.Concurrent;
using System.Net.Security;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

public sealed class ConnectionTests
{
    [Fact]
    public async Task CallAsync_NoAnswerWithinCallTimeout_ThrowsTimeoutAndDropsLateAnswer()
    {
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, new JsonRpcClientOptions { CallTimeout = TimeSpan.FromMilliseconds(200) }).Within();

        var started = DateTime.UtcNow;
        var ex = await Assert.ThrowsAsync<TimeoutException>(() => client.CallAsync("delay", RawJson.Parse("[600]")).Within());
        Assert.Contains("delay", ex.Message);
        Assert.InRange(DateTime.UtcNow - started, TimeSpan.FromMilliseconds(150), TimeSpan.FromSeconds(3));

        await Eventually.TrueAsync(() => client.DroppedAnswers == 1, "the late answer arrived and was dropped");
        Assert.Equal("[1]", (await client.CallAsync("echo", RawJson.Parse("[1]")).Within()).ToString());
    }

    [Fact]
    public async Task CallAsync_Canceled_ThrowsOperationCanceledAndDropsLateAnswer()
    {
        await using var server = new TestServer().Install();
        server.Unanswered["hold"] = true;
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        using var cts = new CancellationTokenSource();

        // Cancel once the request is surely out, and answer only after that: no timer races a loaded machine.
        var call = client.CallAsync("hold", RawJson.Parse("[1]"), cts.Token).AsTask();
        await Eventually.TrueAsync(() => server.Received.Any(m => m.Contains("\"hold\"", StringComparison.Ordinal)), "the server got the call");
        await cts.CancelAsync();
        var ex = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.Within());
        Assert.Equal(cts.Token, ex.CancellationToken);

        using (var request = System.Text.Json.JsonDocument.Parse(server.Received.Single(m => m.Contains("\"hold\"", StringComparison.Ordinal))))
        {
            await server.SendToAllAsync($$"""{"jsonrpc":"2.0","id":{{request.RootElement.GetProperty("id").GetRawText()}},"result":1}""");
        }

        await Eventually.TrueAsync(() => client.DroppedAnswers == 1, "the late answer arrived and was dropped");
        Assert.Equal(JsonRpcClientState.Connected, client.State);
    }

    [Fact]
    public async Task CallAsync_AlreadyCanceledToken_ThrowsWithoutSending()
    {
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.CallAsync("echo", default, new CancellationToken(true)).Within());
        Assert.Empty(server.Received);
    }

    [Fact]
    public async Task ConnectionLost_FailsEveryPendingCallAtOnce()
    {
        await using var server = new TestServer().Install();
        var options = new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(30), Reconnect = { Enabled = false } };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        var states = new ConcurrentQueue<JsonRpcClientState>();
        client.StateChanged += (_, e) => states.Enqueue(e.NewState);

        var pending = Enumerable.Range(0, 50).Select(_ => client.CallAsync("delay", RawJson.Parse("[20000]")).AsTask()).ToArray();
        await Eventually.TrueAsync(() => server.Received.Count >= 50, "all calls sent");
        server.DropAll();

        foreach (var call in pending)
        {
            var ex = await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => call.WaitAsync(TimeSpan.FromSeconds(5)));
            Assert.Contains("delay", ex.Message);
        }

        Assert.Equal(JsonRpcClientState.Disconnected, client.State);
        Assert.Equal([JsonRpcClientState.Disconnected], states);
        await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => client.CallAsync("echo").Within());
    }

    [Fact]
    public async Task ConnectionLost_WithReconnect_ReconnectsAndCallsWorkAgain()
    {
        await using var server = new TestServer().Install();
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(20) } };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        var states = new ConcurrentQueue<JsonRpcClientState>();
        client.StateChanged += (_, e) => states.Enqueue(e.NewState);
        await Eventually.TrueAsync(() => server.ConnectionCount == 1, "the server holds the connection");

        server.DropAll();
        await Eventually.TrueAsync(() => states.Contains(JsonRpcClientState.Connected), "reconnected");
        Assert.Equal([JsonRpcClientState.Reconnecting, JsonRpcClientState.Connected], states);
        // The client is connected once the handshake is done, which can be before the server's accept loop counts it.
        Assert.Equal(2, await server.WaitForConnectionsAsync(2, Bounded.Timeout));
        Assert.Equal(3, await client.CallAsync<int>("add", new[] { 1, 2 }).Within());
    }

    [Fact]
    public async Task CallAsync_WhileReconnecting_WaitsForTheNewConnection()
    {
        var port = 0;
        var first = new TestServer().Install();
        port = first.Port;
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(50), MaxDelay = TimeSpan.FromMilliseconds(100) } };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", port, options).Within();
        await first.DisposeAsync();
        await Eventually.TrueAsync(() => client.State == JsonRpcClientState.Reconnecting, "reconnecting");

        var call = client.CallAsync<int>("add", new[] { 2, 2 }).AsTask();
        await Task.Delay(200); // not synchronisation: a call that failed instead of waiting would have failed by now
        Assert.False(call.IsCompleted);

        await using var second = new TestServer(port: port).Install();
        Assert.Equal(4, await call.Within());
        Assert.Equal(JsonRpcClientState.Connected, client.State);
    }

    [Fact]
    public async Task CallAsync_WhileReconnecting_WithWaitOff_FailsAtOnceSayingItIsReconnecting()
    {
        var server = new TestServer().Install();
        var options = new JsonRpcClientOptions
        {
            Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(20), MaxDelay = TimeSpan.FromMilliseconds(50), WaitWhileReconnecting = false },
        };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        Assert.Equal(4, await client.CallAsync<int>("add", new[] { 2, 2 }).AsTask().Within());
        await server.DisposeAsync();
        await Eventually.TrueAsync(() => client.State == JsonRpcClientState.Reconnecting, "reconnecting");

        var error = await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => client.CallAsync<int>("add", new[] { 2, 2 }).AsTask().Within());
        Assert.Contains("reconnecting", error.Message);
        Assert.Contains("WaitWhileReconnecting", error.Message);
        Assert.Equal(JsonRpcClientState.Reconnecting, client.State); // it goes on trying
    }

    [Fact]
    public async Task CallAsync_WhileReconnecting_TimesOutSayingWhyAndWhatTheLastAttemptGot()
    {
        var server = new TestServer().Install();
        var logs = new JsonRpc.Testing.CapturingLoggerProvider();
        using var loggerFactory = new Microsoft.Extensions.Logging.LoggerFactory([logs]);
        var options = new JsonRpcClientOptions
        {
            CallTimeout = TimeSpan.FromSeconds(2),
            LoggerFactory = loggerFactory,
            Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(20), MaxDelay = TimeSpan.FromMilliseconds(50) },
        };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        await server.DisposeAsync();
        await Eventually.TrueAsync(() => logs.Messages.Any(m => m.Contains("Reconnect attempt 1 to", StringComparison.Ordinal) && m.Contains("failed", StringComparison.Ordinal)), "a reconnect attempt failed");

        var error = await Assert.ThrowsAsync<TimeoutException>(() => client.CallAsync<int>("add", new[] { 2, 2 }).AsTask().WaitAsync(TimeSpan.FromSeconds(60)));
        Assert.Contains("still reconnecting", error.Message);
        Assert.Contains("attempt", error.Message);
        Assert.Contains("127.0.0.1:" + server.Port, error.Message); // the last attempt's error names the address
    }

    [Fact]
    public async Task Reconnect_RestoresRegistrationMethodsAndSubscriptionsBeforeOtherCalls()
    {
        await using var server = new TestServer().Install();
        foreach (var builtIn in new[] { "register_client", "register_method", "subscribe" })
        {
            server.Dispatcher.AddRaw(builtIn, static (_, _) => ValueTask.FromResult(RawJson.Parse("true")));
        }

        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(20) }, AccessToken = "secret" };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        client.AddMethod("m1", () => 1).AddMethod("m2", () => 2);
        await client.RegisterAsync("me").Within();
        await client.SubscribeAsync("ev", _ => { }).Within();

        server.DropAll();
        await Eventually.TrueAsync(() => server.AcceptedCount == 2 && client.State == JsonRpcClientState.Connected, "reconnected");
        Assert.Equal(3, await client.CallAsync<int>("add", new[] { 1, 2 }).Within());

        var all = server.Received.ToArray();
        var afterReconnect = all.Skip(Array.FindLastIndex(all, m => m.Contains("register_client"))).ToArray();
        Assert.Contains("\"params\":{\"name\":\"me\",\"token\":\"secret\"}", afterReconnect[0]);
        Assert.Contains(afterReconnect, m => m.Contains("\"register_method\"") && m.Contains("\"m1\""));
        Assert.Contains(afterReconnect, m => m.Contains("\"register_method\"") && m.Contains("\"m2\""));
        Assert.Contains(afterReconnect, m => m.Contains("\"subscribe\"") && m.Contains("\"ev\""));
        Assert.Contains("\"add\"", afterReconnect[^1]); // the user's call went out only after the restore
        Assert.Equal(2, all.Count(m => m.Contains("register_client")));
    }

    [Fact]
    public async Task CallAsync_MegabyteResult_ReadAcrossSegments()
    {
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        var big = "[\"" + new string('y', 1024 * 1024) + "\"]";
        var result = await client.CallAsync("echo", RawJson.Parse(big)).Within();
        Assert.Equal(big.Length, result.Span.Length);
        Assert.Equal(big, result.ToString());
    }

    [Fact]
    public async Task Reconnect_MaxAttemptsExhausted_GoesDisconnected()
    {
        var server = new TestServer().Install();
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(10), MaxDelay = TimeSpan.FromMilliseconds(20), MaxAttempts = 3 } };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        await server.DisposeAsync();

        await Eventually.TrueAsync(() => client.State == JsonRpcClientState.Disconnected, "gave up");
        await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => client.CallAsync("echo").Within());
    }

    [Fact]
    public async Task ConnectAsync_NothingListening_Throws()
    {
        await using var server = new TestServer();
        var port = server.Port;
        await server.DisposeAsync();
        var error = await Assert.ThrowsAnyAsync<System.Net.Sockets.SocketException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", port).Within());
        Assert.Equal(System.Net.Sockets.SocketError.ConnectionRefused, error.SocketErrorCode);
        Assert.Contains($"127.0.0.1:{port}", error.Message); // names what it could not reach
    }

    [Fact]
    public async Task KeepAlive_WhenIdle_SendsKeepAliveAndStaysConnected()
    {
        await using var server = new TestServer().Install();
        var options = new JsonRpcClientOptions { KeepAliveInterval = TimeSpan.FromMilliseconds(100) };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();

        // The plain server has no keepAlive method: its -32601 answer still proves the connection alive.
        await Eventually.TrueAsync(() => server.Received.Count(m => m.Contains("\"keepAlive\"")) >= 3, "three keep-alives");
        Assert.Equal(JsonRpcClientState.Connected, client.State);
        Assert.Equal(1, server.AcceptedCount);
    }

    [Fact]
    public async Task KeepAlive_Unanswered_ClosesDeadConnectionAndReconnects()
    {
        await using var server = new TestServer().Install();
        server.Unanswered["keepAlive"] = true;
        var options = new JsonRpcClientOptions
        {
            KeepAliveInterval = TimeSpan.FromMilliseconds(100),
            CallTimeout = TimeSpan.FromMilliseconds(300), // an unanswered keep-alive counts as dead after this
            Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(10) },
        };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();

        await Eventually.TrueAsync(() => server.AcceptedCount >= 2, "reconnected after an unanswered keep-alive");
    }

    [Fact]
    public async Task ConnectAsync_Tls_CallsWork()
    {
        using var certificate = TestServer.CreateCertificate();
        await using var server = new TestServer(certificate).Install();
        var options = new JsonRpcClientOptions
        {
            Tls = new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                RemoteCertificateValidationCallback = (_, cert, _, _) => cert is not null && cert.GetCertHashString() == certificate.GetCertHashString(),
            },
        };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        Assert.Equal(5, await client.CallAsync<int>("add", new[] { 2, 3 }).Within());
    }

    [Fact]
    public async Task ConnectAsync_TlsUntrustedCertificate_Throws()
    {
        using var certificate = TestServer.CreateCertificate();
        await using var server = new TestServer(certificate).Install();
        var options = new JsonRpcClientOptions { Tls = new SslClientAuthenticationOptions() };
        await Assert.ThrowsAsync<System.Security.Authentication.AuthenticationException>(
            () => JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within());
    }

    [Fact]
    public async Task ConnectAsync_ContentLengthFraming_CallsAndBatchesWork()
    {
        await using var server = new TestServer(contentLength: true).Install();
        var options = new JsonRpcClientOptions { Framing = JsonRpcClientFraming.ContentLength };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        Assert.Equal(5, await client.CallAsync<int>("add", new[] { 2, 3 }).Within());
        var results = await client.CallBatchAsync([JsonRpcBatchItem.Call("add", RawJson.Parse("[1,1]")), JsonRpcBatchItem.Call("echo", RawJson.Parse("[\"é\"]"))]).Within();
        Assert.Equal("2", results[0].Result.ToString());
        Assert.Equal("[\"é\"]", results[1].Result.ToString());
    }

    [Fact]
    public async Task IncomingMessage_LargerThanMaxMessageSize_ClosesConnection()
    {
        await using var server = new TestServer().Install();
        var options = new JsonRpcClientOptions { MaxMessageSize = 1024, Reconnect = { Enabled = false } };
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port, options).Within();
        var big = "[\"" + new string('x', 4096) + "\"]";
        var call = client.CallAsync("echo", RawJson.Parse(big)).AsTask();
        var ex = await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => call.Within());
        Assert.IsType<JsonRpc.Framing.JsonRpcFramingException>(ex.InnerException);
        Assert.Equal(JsonRpcClientState.Disconnected, client.State);
    }

    [Fact]
    public async Task NotifyAsync_PeerNeverReads_BlocksAtBackPressureInsteadOfBuffering()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        var accepting = listener.AcceptSocketAsync();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", port, new JsonRpcClientOptions { KeepAliveInterval = Timeout.InfiniteTimeSpan }).Within();
        using var peer = await accepting.WaitAsync(Bounded.Timeout); // accepted, never read

        var payload = RawJson.Parse("[\"" + new string('z', 100 * 1024) + "\"]");
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        var sent = 0;
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            for (; sent < 1000; sent++)
            {
                await client.NotifyAsync("flood", payload, cts.Token);
            }
        }).WaitAsync(Bounded.Timeout);

        // 1000 x 100 KB would be 100 MB; the writer stopped after the kernel buffers and the 1 MB high-water mark filled.
        Assert.InRange(sent, 10, 400);
        Assert.Equal(JsonRpcClientState.Connected, client.State);
    }

    [Fact]
    public async Task MalformedAnswer_FailsThatCallAndClientKeepsWorking()
    {
        await using var server = new TestServer().Install();
        server.Unanswered["withheld"] = true;
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        var call = client.CallAsync("withheld").AsTask();
        await Eventually.TrueAsync(() => server.Received.Any(m => m.Contains("withheld")), "call sent");
        var sent = server.Received.Single(m => m.Contains("withheld"));
        var id = System.Text.Json.JsonDocument.Parse(sent).RootElement.GetProperty("id").GetInt64();

        await server.SendToAllAsync("this is not json");
        await server.SendToAllAsync($"{{\"jsonrpc\":\"2.0\",\"id\":{id}}}"); // neither result nor error
        await Assert.ThrowsAsync<JsonRpcProtocolException>(() => call.Within());
        Assert.Equal("[1]", (await client.CallAsync("echo", RawJson.Parse("[1]")).Within()).ToString());
        Assert.Contains(server.Received, m => m.Contains("-32700"));
    }
}
