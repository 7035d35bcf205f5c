using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
using JsonRpc.Web.Tests.Infrastructure;

namespace JsonRpc.Web.Tests;

/// <summary>HTTP POST to the router's endpoint: one message or batch per request, answered in the response body.</summary>
public sealed class HttpPostTests
{
    private static readonly HttpClient Http = new() { Timeout = Bounded.Timeout };

    private static Task<HttpResponseMessage> PostAsync(Uri uri, string body, string? token = null, string contentType = "application/json")
    {
        var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = new StringContent(body, Encoding.UTF8) };
        request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        if (token is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        return Http.SendAsync(request);
    }

    private static async Task<JsonElement> JsonBodyAsync(HttpResponseMessage response)
    {
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        return Json.Parse(await response.Content.ReadAsStringAsync());
    }

    private static async Task<JsonRpcClient> ProviderAsync(RouterHost router, TaskCompletionSource? release = null)
    {
        var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddRawMethod("add", async (p, _) =>
        {
            var args = JsonDocument.Parse(p.ToString()).RootElement;
            if (release is not null)
            {
                await release.Task;
            }

            return RawJson.Parse((args[0].GetInt32() + args[1].GetInt32()).ToString(System.Globalization.CultureInfo.InvariantCulture));
        });
        provider.AddRawMethod("never", static async (_, ct) =>
        {
            await Task.Delay(Timeout.Infinite, ct);
            return RawJson.Null;
        });
        await provider.RegisterAsync("calc").Within();
        return provider;
    }

    [Fact]
    public async Task Post_RoutedCall_WaitsForTcpProviderAndAnswersInBody()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var provider = await ProviderAsync(router, release);

        var posting = PostAsync(router.RpcUri, """{"jsonrpc":"2.0","id":"q1","method":"add","params":[2,3]}""");
        await Eventually.TrueAsync(() => router.Router.GetStats().PendingCalls == 1, "the call waits at the provider");
        Assert.False(posting.IsCompleted);
        release.SetResult();

        using var response = await posting.Within();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var answer = await JsonBodyAsync(response);
        Assert.Equal("q1", answer.GetProperty("id").GetString());
        Json.IsResult(answer, "5");
        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 1, "the request's connection is gone");
        Assert.Equal(2, router.Router.GetStats().ConnectionsTotal);
    }

    [Fact]
    public async Task Post_Batch_AnsweredWithArrayOfItsCalls()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var provider = await ProviderAsync(router);
        using var response = await PostAsync(router.RpcUri, """
            [{"jsonrpc":"2.0","id":1,"method":"add","params":[1,1]},
             {"jsonrpc":"2.0","method":"add","params":[5,5]},
             {"jsonrpc":"2.0","id":2,"method":"add","params":[2,2]},
             {"jsonrpc":"2.0","id":3,"method":"get_server_stats"},
             {"jsonrpc":"2.0","id":4,"method":"missing"}]
            """).Within();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var answers = (await JsonBodyAsync(response)).EnumerateArray().ToDictionary(a => a.GetProperty("id").GetInt32());
        Assert.Equal(4, answers.Count);
        Json.IsResult(answers[1], "2");
        Json.IsResult(answers[2], "4");
        Assert.True(answers[3].GetProperty("result").GetProperty("connections").GetInt64() >= 2);
        Json.IsError(answers[4], JsonRpcErrorCodes.MethodNotFound);
    }

    [Fact]
    public async Task Post_NotificationOrNotificationOnlyBatch_204WithoutBody()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var subscriber = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        await subscriber.RegisterAsync("listener").Within();
        var events = new System.Collections.Concurrent.ConcurrentQueue<string>();
        await subscriber.SubscribeAsync("news", payload => events.Enqueue(payload.ToString())).Within();

        using (var single = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","method":"news","params":{"n":1}}""").Within())
        {
            Assert.Equal(HttpStatusCode.NoContent, single.StatusCode);
            Assert.Empty(await single.Content.ReadAsByteArrayAsync());
        }

        using (var batch = await PostAsync(router.RpcUri, """[{"jsonrpc":"2.0","method":"news","params":{"n":2}},{"jsonrpc":"2.0","method":"news","params":{"n":3}}]""").Within())
        {
            Assert.Equal(HttpStatusCode.NoContent, batch.StatusCode);
            Assert.Empty(await batch.Content.ReadAsByteArrayAsync());
        }

        // Events published over HTTP reach the TCP subscriber.
        await Eventually.TrueAsync(() => events.Count == 3, "the three events arrive");
        Assert.Equal(["""{"n":1}""", """{"n":2}""", """{"n":3}"""], events.ToArray());
    }

    [Fact]
    public async Task Post_MalformedJson_ParseErrorObject()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        using var response = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","id":1,"method":""").Within();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var answer = await JsonBodyAsync(response);
        Json.IsError(answer, JsonRpcErrorCodes.ParseError);
        Assert.Equal(JsonValueKind.Null, answer.GetProperty("id").ValueKind);
    }

    [Fact]
    public async Task Post_BodyWithByteFF_OneParseErrorAndNothingAfterItRuns()
    {
        // 0xFF is the transport's own message boundary: a body carrying it is one invalid message, not two messages.
        await using var router = await RouterHost.StartAsync(http: true);
        await using var subscriber = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        await subscriber.RegisterAsync("listener").Within();
        var events = new System.Collections.Concurrent.ConcurrentQueue<string>();
        await subscriber.SubscribeAsync("news", payload => events.Enqueue(payload.ToString())).Within();

        byte[] body = [.. Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","id":1,"method":"keepAlive"}"""), 0xFF,
            .. Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","method":"news","params":{"n":1}}""")];
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        using var client = new HttpClient { Timeout = Bounded.Timeout };
        using (var response = await client.PostAsync(router.RpcUri, content).Within())
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Json.IsError(await JsonBodyAsync(response), JsonRpcErrorCodes.ParseError);
        }

        // A sentinel published after it: the first event the subscriber sees must be the sentinel.
        using (var sentinel = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","method":"news","params":{"n":2}}""").Within())
        {
            Assert.Equal(HttpStatusCode.NoContent, sentinel.StatusCode);
        }

        await Eventually.TrueAsync(() => !events.IsEmpty, "the sentinel arrives");
        Assert.Equal("""{"n":2}""", Assert.Single(events));
    }

    [Fact]
    public async Task Post_RoutedCallNeverAnswered_CallTimeoutErrorInBody()
    {
        await using var router = await RouterHost.StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300), http: true);
        await using var provider = await ProviderAsync(router);
        using var response = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","id":9,"method":"never"}""").Within();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var answer = await JsonBodyAsync(response);
        Assert.Equal(9, answer.GetProperty("id").GetInt32());
        Json.IsError(answer, RouterErrorCodes.CallTimeout);
    }

    [Fact]
    public async Task Post_BodyOverMaxMessageSize_413ByContentLength()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxMessageSize = 1024, http: true);
        using var response = await PostAsync(router.RpcUri, WsClient.Request(1, "keepAlive", "[\"" + new string('x', 2000) + "\"]")).Within();
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Json.IsError(await JsonBodyAsync(response), RouterErrorCodes.MessageTooLarge);
        Assert.Equal(0, router.Router.GetStats().ConnectionsTotal); // refused before any connection
    }

    [Fact]
    public async Task Post_ChunkedBodyOverMaxMessageSize_413BeforeTheBodyEnds()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxMessageSize = 1024, http: true);
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, router.HttpPort!.Value).Within();
        await using var stream = new NetworkStream(socket, ownsSocket: false);

        // Chunked, with no Content-Length; 3 KiB sent and the body never ended: the router refuses at the limit.
        var head = $"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(head));
        var chunk = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"keepAlive\",\"params\":[\"" + new string('x', 3000);
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"{chunk.Length:x}\r\n{chunk}\r\n"));
        await stream.FlushAsync();

        using var reader = new StreamReader(stream, Encoding.ASCII);
        var status = await reader.ReadLineAsync().Within();
        Assert.StartsWith("HTTP/1.1 413", status);
        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 0, "the request's connection is gone");
        Assert.Equal(1, router.Router.GetStats().ConnectionsTotal);
    }

    [Fact]
    public async Task Post_WithAccessToken_RequiresBearerToken()
    {
        await using var router = await RouterHost.StartAsync(o => o.AccessToken = "s3cret", http: true);
        const string Call = """{"jsonrpc":"2.0","id":1,"method":"keepAlive"}""";

        using (var missing = await PostAsync(router.RpcUri, Call).Within())
        {
            Assert.Equal(HttpStatusCode.Unauthorized, missing.StatusCode);
            Assert.Equal("Bearer", missing.Headers.WwwAuthenticate.Single().Scheme);
            Json.IsError(await JsonBodyAsync(missing), RouterErrorCodes.AccessDenied);
        }

        using (var wrong = await PostAsync(router.RpcUri, Call, token: "guess").Within())
        {
            Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        }

        using var right = await PostAsync(router.RpcUri, Call, token: "s3cret").Within();
        Assert.Equal(HttpStatusCode.OK, right.StatusCode);
        Json.IsResult(await JsonBodyAsync(right), "true");
        Assert.Equal(1, router.Router.GetStats().ConnectionsTotal);
    }

    [Fact]
    public async Task Post_WrongContentTypeOrMethod_RefusedWithClearStatus()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        using var text = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","id":1,"method":"keepAlive"}""", contentType: "text/plain").Within();
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, text.StatusCode);
        Json.IsError(await JsonBodyAsync(text), JsonRpcErrorCodes.InvalidRequest);

        using var get = await Http.GetAsync(router.RpcUri).Within();
        Assert.Equal(HttpStatusCode.MethodNotAllowed, get.StatusCode);
        Assert.Contains("POST", get.Content.Headers.Allow);
    }

    [Fact]
    public async Task Post_OverMaxConnections_503WithError()
    {
        await using var router = await RouterHost.StartAsync(o => o.MaxConnections = 1, http: true);
        await using var holder = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        await holder.CallAsync("keepAlive").Within();
        using var response = await PostAsync(router.RpcUri, """{"jsonrpc":"2.0","id":1,"method":"keepAlive"}""").Within();
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Json.IsError(await JsonBodyAsync(response), RouterErrorCodes.TooManyConnections);
    }
}
