using System.Net.WebSockets;
using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
using JsonRpc.Web.Tests.Infrastructure;

namespace JsonRpc.Web.Tests;

/// <summary>The router's WebSocket endpoint against TCP clients on the same router: a WebSocket is a router connection.</summary>
public sealed class WebSocketTests
{
    private static async Task<JsonRpcClient> ConnectTcpAsync(RouterHost router)
        => await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();

    private static JsonRpcClient AddAdd(JsonRpcClient client)
        => client.AddRawMethod("add", static (p, _) =>
        {
            var args = JsonDocument.Parse(p.ToString()).RootElement;
            return ValueTask.FromResult(RawJson.Parse((args[0].GetInt32() + args[1].GetInt32()).ToString(System.Globalization.CultureInfo.InvariantCulture)));
        });

    [Fact]
    public async Task WebSocket_CallsBothWaysWithTcp_RoutedLikeTcp()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var tcp = AddAdd(await ConnectTcpAsync(router));
        await tcp.RegisterAsync("tcp-provider").Within();

        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await ws.CallAsync(1, "register_client", """{"name":"ws-provider"}"""), "true");
        Json.IsResult(await ws.CallAsync(2, "register_method", """{"method":"ws.upper"}"""), "true");

        // WebSocket calls the TCP provider, under its own id.
        Json.IsResult(await ws.CallAsync(3, "add", "[2,3]"), "5");

        // TCP calls the WebSocket provider: the WebSocket client sees the router's id and answers it.
        var call = tcp.CallAsync("ws.upper", Json.Raw("""["abc"]""")).AsTask();
        var request = await ws.ReceiveJsonAsync();
        Assert.Equal("ws.upper", request.GetProperty("method").GetString());
        Assert.Equal("abc", request.GetProperty("params")[0].GetString());
        await ws.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"ABC"}""");
        Assert.Equal("\"ABC\"", (await call.Within()).ToString());

        // Same registry, same stats: both clients are registered connections.
        var clients = await ws.CallAsync(4, "list_clients");
        var names = clients.GetProperty("result").EnumerateArray().Select(c => c.GetProperty("name").GetString()!).ToArray();
        Assert.Equal(new[] { "tcp-provider", "ws-provider" }, names);
        var stats = router.Router.GetStats();
        Assert.Equal(2, stats.Connections);
        Assert.Equal(2, stats.RegisteredClients);
        Assert.Equal(2, stats.CallsRouted);
    }

    [Fact]
    public async Task WebSocket_Batch_AnsweredAsOneTextMessage()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var tcp = AddAdd(await ConnectTcpAsync(router));
        await tcp.RegisterAsync("calc").Within();
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);

        await ws.SendAsync("""
            [{"jsonrpc":"2.0","id":"a","method":"add","params":[1,2]},
             {"jsonrpc":"2.0","method":"add","params":[9,9]},
             {"jsonrpc":"2.0","id":"b","method":"keepAlive"},
             {"jsonrpc":"2.0","id":"c","method":"no.such"}]
            """);
        var answer = await ws.ReceiveJsonAsync();
        Assert.Equal(JsonValueKind.Array, answer.ValueKind);
        var byId = answer.EnumerateArray().ToDictionary(a => a.GetProperty("id").GetString()!);
        Assert.Equal(3, byId.Count);
        Json.IsResult(byId["a"], "3");
        Json.IsResult(byId["b"], "true");
        Json.IsError(byId["c"], JsonRpcErrorCodes.MethodNotFound);
    }

    [Fact]
    public async Task WebSocket_PrettyPrintedMessage_IsOneMessageAndReachesTcpProviderIntact()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var tcp = await ConnectTcpAsync(router);
        tcp.AddRawMethod("echo", static (p, _) => ValueTask.FromResult(p.Detach()));
        await tcp.RegisterAsync("echoer").Within();
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);

        // Raw newlines inside one text message: WebSocket boundaries, not lines, delimit messages; the TCP provider
        // (newline-delimited) still gets it as one line.
        await ws.SendFragmentedAsync("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 5,\n  \"method\": \"echo\",\n  \"params\": {\"text\": \"two\\nlines\"}\n}", fragment: 7);
        var answer = await ws.ReceiveAnswerAsync(5);
        Assert.Equal("two\nlines", answer.GetProperty("result").GetProperty("text").GetString());
    }

    [Fact]
    public async Task WebSocket_Events_FlowBothWaysWithTcp()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var tcp = await ConnectTcpAsync(router);
        await tcp.RegisterAsync("tcp").Within();
        var received = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await tcp.SubscribeAsync("from.ws", payload => received.TrySetResult(payload.ToString())).Within();
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await ws.CallAsync(1, "register_client", """{"name":"ws"}"""), "true");
        Json.IsResult(await ws.CallAsync(2, "subscribe", """{"event":"from.tcp"}"""), "true");

        await tcp.PublishAsync("from.tcp", Json.Raw("""{"n":1}""")).Within();
        var @event = await ws.ReceiveJsonAsync();
        Assert.Equal("from.tcp", @event.GetProperty("method").GetString());
        Assert.Equal(1, @event.GetProperty("params").GetProperty("n").GetInt32());
        Assert.False(@event.TryGetProperty("id", out _));

        await ws.SendAsync("""{"jsonrpc":"2.0","method":"from.ws","params":{"n":2}}""");
        Assert.Equal("""{"n":2}""", await received.Task.Within());
        Assert.Equal(2, router.Router.GetStats().EventsDelivered);
    }

    [Fact]
    public async Task WebSocket_MessageOverMaxMessageSize_AnsweredThenClosedWith1009()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxMessageSize = 1024, http: true);
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await ws.CallAsync(1, "keepAlive"), "true");

        // Fragments: refused once past the limit, while the message is still arriving.
        var big = WsClient.Request(2, "keepAlive", "[\"" + new string('x', 4096) + "\"]");
        await ws.SendFragmentedAsync(big, fragment: 512);
        Json.IsError(await ws.ReceiveJsonAsync(), RouterErrorCodes.MessageTooLarge);
        Assert.Equal(WebSocketCloseStatus.MessageTooBig, await ws.ReceiveCloseAsync());
        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 0, "the connection is gone");
    }

    [Fact]
    public async Task WebSocket_BinaryMessage_ParseErrorThenClosedWith1003()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        await ws.SendAsync(System.Text.Encoding.UTF8.GetBytes(WsClient.Request(1, "keepAlive")), WebSocketMessageType.Binary);
        var error = await ws.ReceiveJsonAsync();
        Json.IsError(error, JsonRpcErrorCodes.ParseError);
        Assert.Contains("text", error.GetProperty("error").GetProperty("data").GetString());
        Assert.Equal(WebSocketCloseStatus.InvalidMessageType, await ws.ReceiveCloseAsync());
    }

    [Fact]
    public async Task WebSocket_InvalidJson_ParseErrorAndConnectionStays()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        await ws.SendAsync("{\"jsonrpc\":\"2.0\",\"id\":1,");
        Json.IsError(await ws.ReceiveJsonAsync(), JsonRpcErrorCodes.ParseError);
        Json.IsResult(await ws.CallAsync(2, "keepAlive"), "true");
    }

    [Fact]
    public async Task WebSocket_ClientThatStopsReading_DroppedBySlowReaderRule()
    {
        var logs = new CapturingLoggerProvider();
        await using var router = await RouterHost.StartAsync(o => (o.MaxMessageSize, o.MaxOutboundBufferSize) = (64 * 1024, 256 * 1024), logger: logs, http: true);
        await using var slow = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await slow.CallAsync(1, "register_client", """{"name":"slow"}"""), "true");
        Json.IsResult(await slow.CallAsync(2, "subscribe", """{"event":"flood"}"""), "true");
        await using var publisher = await ConnectTcpAsync(router);
        await publisher.CallAsync("keepAlive").Within(); // served, so counted
        Assert.Equal(2, router.Router.GetStats().Connections);
        var payload = Json.Raw("\"" + new string('p', 16 * 1024) + "\"");

        // The WebSocket client reads nothing more: socket buffers, then the transport's pipe, then the router's
        // outbound queue fill, and the router drops it. Bounded: at most 64 MiB published.
        for (var i = 0; i < 4096 && router.Router.GetStats().Connections > 1; i++)
        {
            await publisher.PublishAsync("flood", payload).Within();
        }

        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 1, "the slow WebSocket client is dropped");
        Assert.Contains(logs.Messages, m => m.Contains("(slow) fell", StringComparison.Ordinal));
        Assert.Contains(logs.Messages, m => m.Contains("(slow) closed: OutboundLimitExceeded", StringComparison.Ordinal));
        Assert.Equal(JsonRpcClientState.Connected, publisher.State);
    }

    [Fact]
    public async Task WebSocket_OverMaxConnections_RefusedWithErrorAndClose1013()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxConnections = 1, http: true);
        await using var first = await ConnectTcpAsync(router);
        await first.CallAsync("keepAlive").Within();

        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsError(await ws.ReceiveJsonAsync(), RouterErrorCodes.TooManyConnections);
        Assert.Equal((WebSocketCloseStatus)1013, await ws.ReceiveCloseAsync());
        Assert.Equal(1, router.Router.GetStats().ConnectionsRejected);
    }

    [Fact]
    public async Task WebSocket_RegistrationWithAccessToken_SameRuleAsTcp()
    {
        await using var router = await RouterHost.StartAsync(o => o.AccessToken = "s3cret", http: true);
        await using var wrong = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsError(await wrong.CallAsync(1, "register_client", """{"name":"w","token":"nope"}"""), RouterErrorCodes.AccessDenied);
        Assert.Equal(WebSocketCloseStatus.PolicyViolation, await wrong.ReceiveCloseAsync());

        await using var right = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await right.CallAsync(1, "register_client", """{"name":"w","token":"s3cret"}"""), "true");
    }

    [Fact]
    public async Task WebSocket_UnregisteredClientThatStopsReading_DroppedAndLoggedAsUnregistered()
    {
        var logs = new CapturingLoggerProvider();
        await using var router = await RouterHost.StartAsync(o => (o.MaxMessageSize, o.MaxOutboundBufferSize) = (64 * 1024, 64 * 1024), logger: logs, http: true);
        await using var slow = await WsClient.ConnectAsync(router.WebSocketUri);
        Json.IsResult(await slow.CallAsync(1, "keepAlive"), "true");

        // Batches of calls whose answers it never reads; bounded at 4,000 batches (about 140 MB of answers).
        var batch = "[" + string.Join(",", Enumerable.Range(0, 50).Select(i => WsClient.Request(i, "get_server_stats"))) + "]";
        for (var i = 0; i < 4000 && router.Router.GetStats().Connections > 0; i++)
        {
            try
            {
                await slow.SendAsync(batch);
            }
            catch (WebSocketException)
            {
                break; // dropped
            }
        }

        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 0, "the slow unregistered client is dropped");
        Assert.Contains(logs.Messages, m => m.Contains("(unregistered) fell", StringComparison.Ordinal));
        Assert.DoesNotContain(logs.Messages, m => m.Contains("(null)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WebSocket_FromAPageOfAnotherOrigin_Refused403()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        var refused = await Assert.ThrowsAsync<WebSocketException>(() => WsClient.ConnectAsync(router.WebSocketUri, origin: "http://evil.example"));
        Assert.Contains("403", refused.Message);
        Assert.Equal(0, router.Router.GetStats().ConnectionsTotal);

        // The router's own origin (the dashboard's page) is accepted.
        await using var same = await WsClient.ConnectAsync(router.WebSocketUri, origin: $"http://127.0.0.1:{router.HttpPort}");
        Json.IsResult(await same.CallAsync(1, "keepAlive"), "true");
    }
}
