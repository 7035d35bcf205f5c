using System.Net.WebSockets;
using System.Text.Json;
using System.Text.RegularExpressions;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
using JsonRpc.Web.Tests.Infrastructure;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace JsonRpc.Web.Tests;

/// <summary>JsonRpcClient over ws://, wss:// and tcp:// URIs: the same API and features as over TCP.</summary>
public sealed partial class ClientWebSocketTests(ITestOutputHelper output)
{
    [GeneratedRegex(@"listening on https://127\.0\.0\.1:(\d+)/rpc")]
    private static partial Regex HttpsLine();

    private static RawJson Sum(RawJson p)
    {
        var args = JsonDocument.Parse(p.ToString()).RootElement;
        return RawJson.Parse((args[0].GetInt32() + args[1].GetInt32()).ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task DisposeAsync_WsClient_LeavesWithACloseFrame_RouterLogsClientClosed()
    {
        var logs = new CapturingLoggerProvider();
        await using var router = await RouterHost.StartAsync(logger: logs, http: true);
        var ws = await JsonRpcClient.ConnectAsync(router.WebSocketUri).Within();
        await ws.RegisterAsync("leaver").Within();
        await ws.PublishAsync("bye", RawJson.Parse("1")).Within(); // written just before dispose: still sent
        await ws.DisposeAsync();

        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 0, "the router has let the client go");
        await Eventually.TrueAsync(() => logs.Messages.Any(m => m.Contains("(leaver) closed:", StringComparison.Ordinal)), "the close is logged");
        var closed = logs.Messages.Single(m => m.Contains("(leaver) closed:", StringComparison.Ordinal));
        output.WriteLine(closed);
        Assert.EndsWith("closed: ClientClosed.", closed);
        Assert.Equal(0, router.Router.GetStats().Errors);
    }

    [Fact]
    public async Task BinaryMessageFromServer_ClientFailsItsCallsAndLeavesWithACloseFrame()
    {
        // A server that breaks the protocol (a binary message) ends the client's reading with an error: the client must
        // still leave as a WebSocket should (a close frame), not just drop the TCP connection, and its calls fail.
        var closeSeen = new TaskCompletionSource<WebSocketMessageType>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (app, baseUri) = await LoopbackWebApp.StartAsync(web =>
        {
            web.UseWebSockets();
            web.Map("/rpc", (RequestDelegate)(async context =>
            {
                using var socket = await context.WebSockets.AcceptWebSocketAsync();
                var buffer = new byte[4096];
                await socket.ReceiveAsync(buffer, CancellationToken.None); // the client's call
                await socket.SendAsync(new byte[] { 1, 2, 3 }, WebSocketMessageType.Binary, true, CancellationToken.None);
                try
                {
                    var next = await socket.ReceiveAsync(buffer, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(20));
                    closeSeen.TrySetResult(next.MessageType);
                }
                catch (Exception ex)
                {
                    closeSeen.TrySetException(ex);
                }
            }));
        });
        await using var _ = app;
        await using var client = await JsonRpcClient.ConnectAsync(new Uri($"ws://127.0.0.1:{baseUri.Port}/rpc")).Within();
        var call = client.CallAsync("anything", RawJson.Parse("[1]")).AsTask();
        await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => call.Within());
        Assert.Equal(WebSocketMessageType.Close, await closeSeen.Task.Within());
    }

    [Fact]
    public async Task ConnectAsync_WsUri_ServesCallsBatchesAndEventsWithTcpClients()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var ws = await JsonRpcClient.ConnectAsync(router.WebSocketUri).Within();
        Assert.Equal(router.WebSocketUri, ws.Uri);
        ws.AddRawMethod("ws.sum", static (p, _) => ValueTask.FromResult(Sum(p)));
        await ws.RegisterAsync("ws-client").Within();

        await using var tcp = await JsonRpcClient.ConnectAsync(new Uri($"tcp://127.0.0.1:{router.Port}")).Within();
        Assert.Equal("127.0.0.1", tcp.Host);
        tcp.AddRawMethod("tcp.sum", static (p, _) => ValueTask.FromResult(Sum(p)));
        await tcp.RegisterAsync("tcp-client").Within();

        // Calls both ways.
        Assert.Equal("7", (await tcp.CallAsync("ws.sum", RawJson.Parse("[3,4]")).Within()).ToString());
        Assert.Equal("9", (await ws.CallAsync("tcp.sum", RawJson.Parse("[4,5]")).Within()).ToString());

        // A batch over the WebSocket, one text message each way.
        var results = await ws.CallBatchAsync([
            JsonRpcBatchItem.Call("tcp.sum", RawJson.Parse("[1,1]")),
            JsonRpcBatchItem.Notification("keepAlive"),
            JsonRpcBatchItem.Call("missing"),
        ]).Within();
        Assert.Equal("2", results[0].GetResult().ToString());
        Assert.True(results[1].IsNotification);
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, results[2].Error!.Code);

        // Events both ways.
        var atWs = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var atTcp = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await ws.SubscribeAsync("to.ws", p => atWs.TrySetResult(p.ToString())).Within();
        await tcp.SubscribeAsync("to.tcp", p => atTcp.TrySetResult(p.ToString())).Within();
        await tcp.PublishAsync("to.ws", RawJson.Parse("{\"text\":\"line one\\nline two\"}")).Within();
        await ws.PublishAsync("to.tcp", RawJson.Parse("[1,2,3]")).Within();
        Assert.Equal("{\"text\":\"line one\\nline two\"}", await atWs.Task.Within());
        Assert.Equal("[1,2,3]", await atTcp.Task.Within());
    }

    [Fact]
    public async Task ConnectAsync_WsUri_ReconnectsAndRegistersAgainAfterTheRouterDropsIt()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxMessageSize = 1024, http: true);
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(50), MaxDelay = TimeSpan.FromMilliseconds(200) } };
        await using var ws = await JsonRpcClient.ConnectAsync(router.WebSocketUri, options).Within();
        ws.AddRawMethod("ws.sum", static (p, _) => ValueTask.FromResult(Sum(p)));
        await ws.RegisterAsync("comes-back").Within();
        var states = new System.Collections.Concurrent.ConcurrentQueue<JsonRpcClientState>();
        ws.StateChanged += (_, e) => states.Enqueue(e.NewState);

        // A message over the router's limit: the router answers -32006 and closes the WebSocket (1009).
        await Assert.ThrowsAsync<JsonRpcConnectionLostException>(() => ws.CallAsync("keepAlive", RawJson.Parse("[\"" + new string('x', 2048) + "\"]")).AsTask().Within());
        await Eventually.TrueAsync(() => states.Contains(JsonRpcClientState.Reconnecting), "the router drops the WebSocket");
        await Eventually.TrueAsync(() => ws.State == JsonRpcClientState.Connected, "the client is back");

        await using var tcp = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port, new JsonRpcClientOptions { KeepAliveInterval = TimeSpan.FromMilliseconds(100) }).Within();
        RawJson answer = default;
        await Eventually.TrueAsync(() =>
        {
            // Registered again under its name, with its methods: callable from TCP.
            try
            {
                answer = tcp.CallAsync("ws.sum", RawJson.Parse("[20,22]")).AsTask().GetAwaiter().GetResult();
                return true;
            }
            catch (JsonRpcRemoteException)
            {
                return false;
            }
        }, "the reconnected WebSocket client serves its method again");
        Assert.Equal("42", answer.ToString());
    }

    [Fact]
    public async Task ConnectAsync_WssUri_WithTlsOptions_CallsThroughTheStandaloneRouter()
    {
        var pfx = Path.Combine(Path.GetTempPath(), $"jsonrpc-wss-{Guid.NewGuid():N}.pfx");
        await File.WriteAllBytesAsync(pfx, StandaloneRouterWebTests.SelfSignedCertificate().Export(System.Security.Cryptography.X509Certificates.X509ContentType.Pfx, "pw"));
        await using var router = RouterProcess.Start("--port", "0", "--http_port", "0", "--certificate_path", pfx, "--certificate_password", "pw");
        try
        {
            var port = (await router.WaitForLineAsync(HttpsLine(), TimeSpan.FromSeconds(30))).Groups[1].Value;
            var options = new JsonRpcClientOptions
            {
                Tls = new System.Net.Security.SslClientAuthenticationOptions { RemoteCertificateValidationCallback = static (_, _, _, _) => true },
            };
            await using var client = await JsonRpcClient.ConnectAsync(new Uri($"wss://127.0.0.1:{port}/rpc"), options).Within();
            Assert.Equal("true", (await client.CallAsync("keepAlive").Within()).ToString());
            await client.RegisterAsync("secure").Within();
            var clients = JsonDocument.Parse((await client.CallAsync("list_clients").Within()).ToString()).RootElement;
            Assert.Equal("secure", clients[0].GetProperty("name").GetString());
        }
        finally
        {
            output.WriteLine(router.Output + router.Error);
            await router.DisposeAsync();
            File.Delete(pfx);
        }
    }

    [Fact]
    public async Task ConnectAsync_BadUri_ClearErrors()
    {
        await Assert.ThrowsAsync<ArgumentException>(() => JsonRpcClient.ConnectAsync(new Uri("http://127.0.0.1:1/rpc")));
        await Assert.ThrowsAsync<ArgumentException>(() => JsonRpcClient.ConnectAsync(new Uri("tcp://127.0.0.1")));

        // An HTTP server without a WebSocket at that path: the handshake fails with an IOException that says so.
        await using var router = await RouterHost.StartAsync(http: true);
        var error = await Assert.ThrowsAsync<IOException>(() => JsonRpcClient.ConnectAsync(new Uri($"ws://127.0.0.1:{router.HttpPort}/nothing-here")));
        Assert.Contains("/nothing-here", error.Message);
    }
}
