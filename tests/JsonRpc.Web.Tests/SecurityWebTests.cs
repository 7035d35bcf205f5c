using System.Net;
using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
using JsonRpc.Web.Tests.Infrastructure;

namespace JsonRpc.Web.Tests;

/// <summary>
/// Identities and permissions over the router's HTTP endpoint: the permission matrix over WebSocket (a bearer header
/// at the upgrade) and over POST (a bearer header per request), 401 for a refused token, anonymous rules for POST.
/// </summary>
public sealed class SecurityWebTests
{
    private static JsonRpcPermission Allow(params string[] patterns) => new() { Allow = patterns };

    /// <summary>Two teams, each providing and publishing its own names; ops may do anything.</summary>
    private static JsonRpcSecurityOptions Teams(JsonRpcIdentityRules? anonymous = null)
    {
        var security = new JsonRpcSecurityOptions { Anonymous = anonymous };
        security.Tokens.Add(new JsonRpcTokenIdentity { Identity = "alpha", Token = "alpha-token" });
        security.Tokens.Add(new JsonRpcTokenIdentity { Identity = "beta", Token = "beta-token" });
        security.Tokens.Add(new JsonRpcTokenIdentity { Identity = "ops", Token = "ops-token" });
        security.Identities["alpha"] = new JsonRpcIdentityRules
        {
            Provide = Allow("alpha.>"),
            Call = new JsonRpcPermission { Allow = ["alpha.>", "beta.*"], Deny = ["beta.secret"] },
            Publish = Allow("alpha.events.>"),
            Subscribe = Allow("beta.events.*"),
            ClientNames = Allow("alpha.*"),
        };
        security.Identities["beta"] = new JsonRpcIdentityRules
        {
            Provide = Allow("beta.>"), Call = Allow("alpha.>"), Publish = Allow("beta.events.>"), Subscribe = Allow("alpha.events.>"),
            ClientNames = Allow("beta.*"),
        };
        security.Identities["ops"] = new JsonRpcIdentityRules { Monitor = true };
        return security;
    }

    private static Task<RouterHost> StartAsync(JsonRpcSecurityOptions security) => RouterHost.StartAsync(o => o.Security = security, http: true);

    private static void IsDenied(JsonElement answer, string permission, string key, string value, string identity)
    {
        Assert.True(answer.TryGetProperty("error", out var error), "Expected an error: " + answer.GetRawText());
        Assert.Equal(RouterErrorCodes.PermissionDenied, error.GetProperty("code").GetInt32());
        var data = error.GetProperty("data");
        Assert.Equal(permission, data.GetProperty("permission").GetString());
        Assert.Equal(value, data.GetProperty(key).GetString());
        Assert.Equal(identity, data.GetProperty("identity").GetString());
        Assert.False(string.IsNullOrEmpty(data.GetProperty("detail").GetString()));
    }

    private static async Task<WsClient> BetaAsync(RouterHost router)
    {
        var beta = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "beta-token");
        Json.IsResult(await beta.CallAsync(1, "register_client", """{"name":"beta.1"}"""), "true");
        Json.IsResult(await beta.CallAsync(2, "register_method", """{"method":"beta.echo"}"""), "true");
        Json.IsResult(await beta.CallAsync(3, "register_method", """{"method":"beta.secret"}"""), "true");
        Json.IsResult(await beta.CallAsync(4, "subscribe", """{"event":"alpha.events.tick"}"""), "true");
        return beta;
    }

    /// <summary>Reads the next request the provider gets, answers it with its first parameter, and returns its method.</summary>
    private static async Task<string> ServeOneAsync(WsClient provider)
    {
        var request = await provider.ReceiveJsonAsync();
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":{{request.GetProperty("params")[0].GetRawText()}}}""");
        return request.GetProperty("method").GetString()!;
    }

    private static Task<HttpResponseMessage> PostAsync(RouterHost router, string body, string? token) => WebPost.SendAsync(router.RpcUri, body, token);

    private static Task<JsonElement> BodyAsync(HttpResponseMessage response) => WebPost.BodyAsync(response);

    private static JsonElement ById(JsonElement batch, int id)
        => batch.EnumerateArray().Single(a => a.TryGetProperty("id", out var got) && got.ValueKind == JsonValueKind.Number && got.GetInt32() == id);

    [Theory]
    [InlineData("provide")]
    [InlineData("call")]
    [InlineData("publish")]
    [InlineData("subscribe")]
    [InlineData("client_name")]
    public async Task WebSocket_BearerToken_EachPermissionAllowedAndDenied(string kind)
    {
        await using var router = await StartAsync(Teams());
        await using var beta = await BetaAsync(router);
        await using var ops = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "ops-token");
        Json.IsResult(await ops.CallAsync(100, "register_client", """{"name":"ops.1"}"""), "true");
        Json.IsResult(await ops.CallAsync(1, "subscribe", """{"event":"beta.events.tick"}"""), "true");
        await using var alpha = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "alpha-token");
        if (kind != "client_name")
        {
            Json.IsResult(await alpha.CallAsync(1, "register_client", """{"name":"alpha.1"}"""), "true");
        }

        switch (kind)
        {
            case "provide":
                IsDenied(await alpha.CallAsync(2, "register_method", """{"method":"beta.charge"}"""), "provide", "method", "beta.charge", "alpha");
                Json.IsResult(await alpha.CallAsync(3, "register_method", """{"method":"alpha.charge"}"""), "true");
                Json.IsError(await ops.CallAsync(2, "beta.charge", "[0]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);
                break;
            case "call":
                IsDenied(await alpha.CallAsync(2, "beta.secret", "[2]"), "call", "method", "beta.secret", "alpha");
                await alpha.SendAsync(WsClient.Request(3, "beta.echo", "[3]"));
                Assert.Equal("beta.echo", await ServeOneAsync(beta)); // the refused call never reached the provider
                Json.IsResult(await alpha.ReceiveAnswerAsync(3), "3");
                break;
            case "publish":
                // ops subscribes to both events: the first message it receives after the refused publication is the
                // allowed one that followed it (read as it comes, nothing skipped).
                Json.IsResult(await ops.CallAsync(2, "subscribe", """{"event":"alpha.events.tick"}"""), "true");
                await alpha.SendAsync("""{"jsonrpc":"2.0","method":"beta.events.tick","params":[1]}""");
                await alpha.SendAsync("""{"jsonrpc":"2.0","method":"alpha.events.tick","params":[2]}""");
                var @event = await beta.ReceiveJsonAsync();
                Assert.Equal("alpha.events.tick", @event.GetProperty("method").GetString());
                var first = await ops.ReceiveJsonAsync();
                Assert.Equal("alpha.events.tick", first.GetProperty("method").GetString());
                Assert.Equal("[2]", first.GetProperty("params").GetRawText());

                var stats = (await ops.CallAsync(3, "get_server_stats")).GetProperty("result");
                Assert.Equal(1, stats.GetProperty("refusals").GetProperty("publish").GetInt64());
                Json.IsResult(await alpha.CallAsync(4, "keepAlive"), "true");
                break;
            case "subscribe":
                IsDenied(await alpha.CallAsync(2, "subscribe", """{"event":"alpha.events.tick"}"""), "subscribe", "event", "alpha.events.tick", "alpha");
                Json.IsResult(await alpha.CallAsync(3, "subscribe", """{"event":"beta.events.tick"}"""), "true");
                await beta.SendAsync("""{"jsonrpc":"2.0","method":"beta.events.tick","params":[1]}""");
                Assert.Equal("beta.events.tick", (await alpha.ReceiveJsonAsync()).GetProperty("method").GetString());
                break;
            default:
                IsDenied(await alpha.CallAsync(2, "register_client", """{"name":"beta.2"}"""), "client_name", "name", "beta.2", "alpha");
                Json.IsResult(await alpha.CallAsync(3, "register_client", """{"name":"alpha.2"}"""), "true");
                break;
        }

        Assert.Equal(WebSocketState.Open, alpha.Socket.State);
    }

    [Fact]
    public async Task WebSocket_RefusedBearer_Is401BeforeTheUpgrade()
    {
        await using var router = await StartAsync(Teams());
        using var socket = new ClientWebSocket();
        socket.Options.CollectHttpResponseDetails = true;
        socket.Options.SetRequestHeader("Authorization", "Bearer wrong-token");

        await Assert.ThrowsAsync<WebSocketException>(() => socket.ConnectAsync(router.WebSocketUri, CancellationToken.None).Within());

        Assert.Equal(HttpStatusCode.Unauthorized, socket.HttpStatusCode);
        Assert.Equal(0, router.Router.GetStats().ConnectionsTotal); // no router connection was ever made
    }

    [Fact]
    public async Task WebSocket_NoBearer_IsUnauthenticatedUntilItAuthenticates()
    {
        await using var router = await StartAsync(Teams());
        await using var ws = await WsClient.ConnectAsync(router.WebSocketUri);

        var refused = await ws.CallAsync(1, "register_client", """{"name":"alpha.1"}""");
        Json.IsError(refused, RouterErrorCodes.NotAuthenticated);
        Json.IsResult(await ws.CallAsync(2, "authenticate", """{"token":"alpha-token"}"""), """{"identity":"alpha","roles":[]}""");
        Json.IsResult(await ws.CallAsync(3, "register_client", """{"name":"alpha.1"}"""), "true");
    }

    [Fact]
    public async Task Post_BearerToken_BatchOfEveryKindEachAnsweredOnItsOwn()
    {
        await using var router = await StartAsync(Teams());
        await using var beta = await BetaAsync(router);
        var serving = ServeOneAsync(beta);

        using var response = await PostAsync(router, "[" + string.Join(",",
            WsClient.Request(1, "register_client", """{"name":"beta.9"}"""),
            WsClient.Request(2, "register_client", """{"name":"alpha.9"}"""),
            WsClient.Request(3, "register_method", """{"method":"beta.x"}"""),
            WsClient.Request(4, "register_method", """{"method":"alpha.x"}"""),
            WsClient.Request(5, "subscribe", """{"event":"alpha.events.tick"}"""),
            WsClient.Request(6, "subscribe", """{"event":"beta.events.tick"}"""),
            WsClient.Request(7, "beta.secret", "[7]"),
            WsClient.Request(8, "beta.echo", "[8]"),
            """{"jsonrpc":"2.0","method":"alpha.events.tick","params":[9]}""") + "]", "alpha-token");

        var batch = await BodyAsync(response);
        Assert.Equal("beta.echo", await serving.Within());
        Assert.Equal(8, batch.GetArrayLength());
        IsDenied(ById(batch, 1), "client_name", "name", "beta.9", "alpha");
        Json.IsResult(ById(batch, 2), "true");
        IsDenied(ById(batch, 3), "provide", "method", "beta.x", "alpha");
        Json.IsResult(ById(batch, 4), "true");
        IsDenied(ById(batch, 5), "subscribe", "event", "alpha.events.tick", "alpha");
        Json.IsResult(ById(batch, 6), "true");
        IsDenied(ById(batch, 7), "call", "method", "beta.secret", "alpha");
        Json.IsResult(ById(batch, 8), "8");

        // The allowed event reached beta, once.
        Assert.Equal("alpha.events.tick", (await beta.ReceiveJsonAsync()).GetProperty("method").GetString());
    }

    [Fact]
    public async Task Post_DeniedPublish_204AndNotDelivered()
    {
        await using var router = await StartAsync(Teams());
        await using var ops = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "ops-token");
        Json.IsResult(await ops.CallAsync(100, "register_client", """{"name":"ops.1"}"""), "true");
        Json.IsResult(await ops.CallAsync(1, "subscribe", """{"event":"beta.events.tick"}"""), "true");
        Json.IsResult(await ops.CallAsync(2, "subscribe", """{"event":"alpha.events.tick"}"""), "true");

        using (var denied = await PostAsync(router, """{"jsonrpc":"2.0","method":"beta.events.tick","params":[1]}""", "alpha-token"))
        {
            Assert.Equal(HttpStatusCode.NoContent, denied.StatusCode);
        }

        using (var allowed = await PostAsync(router, """{"jsonrpc":"2.0","method":"alpha.events.tick","params":[2]}""", "alpha-token"))
        {
            Assert.Equal(HttpStatusCode.NoContent, allowed.StatusCode);
        }

        var @event = await ops.ReceiveJsonAsync();
        Assert.Equal("alpha.events.tick", @event.GetProperty("method").GetString());
        var stats = (await ops.CallAsync(3, "get_server_stats")).GetProperty("result");
        Assert.Equal(1, stats.GetProperty("refusals").GetProperty("publish").GetInt64());
        Assert.Equal(1, stats.GetProperty("identities").GetProperty("alpha").GetProperty("refusals").GetInt64());
    }

    [Theory]
    [InlineData("wrong-token")]
    [InlineData("eyJhbGciOiJub25lIn0.eyJzdWIiOiJvcHMifQ.")]
    [InlineData(null)]
    public async Task Post_RefusedOrMissingBearerWithoutAnonymousRules_Is401(string? token)
    {
        await using var router = await StartAsync(Teams());
        using var response = await PostAsync(router, WsClient.Request(1, "get_server_stats"), token);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal("Bearer", response.Headers.WwwAuthenticate.Single().Scheme);
        var body = Json.Parse(await response.Content.ReadAsStringAsync());
        Json.IsError(body, RouterErrorCodes.AccessDenied);
        Assert.Equal(0, router.Router.GetStats().ConnectionsTotal);
    }

    [Fact]
    public async Task Post_AnonymousRules_UnauthenticatedServedWithinThemAndBadBearerStill401()
    {
        await using var router = await StartAsync(Teams(new JsonRpcIdentityRules { Call = Allow("beta.echo") }));
        await using var beta = await BetaAsync(router);
        var serving = ServeOneAsync(beta);

        using var response = await PostAsync(router, "[" + WsClient.Request(1, "beta.echo", "[1]") + "," + WsClient.Request(2, "beta.secret", "[2]") + "]", null);
        var batch = await BodyAsync(response);
        Assert.Equal("beta.echo", await serving.Within());
        Json.IsResult(ById(batch, 1), "1");
        IsDenied(ById(batch, 2), "call", "method", "beta.secret", "(anonymous)");

        using var refused = await PostAsync(router, WsClient.Request(3, "beta.echo", "[3]"), "wrong-token");
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
    }

    private static readonly byte[] HmacKey = RandomNumberGenerator.GetBytes(32);

    private static string B64(byte[] bytes) => Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');

    /// <summary>An HS256 JWT signed by hand (header, claims, HMAC-SHA256 of both).</summary>
    private static string Jwt(string subject, DateTimeOffset expires, byte[]? key = null)
    {
        var header = B64(Encoding.UTF8.GetBytes("""{"alg":"HS256","typ":"JWT"}"""));
        var claims = B64(Encoding.UTF8.GetBytes(
            $$"""{"sub":"{{subject}}","iss":"https://issuer.test","aud":"jsonrpc","nbf":{{expires.AddHours(-2).ToUnixTimeSeconds()}},"exp":{{expires.ToUnixTimeSeconds()}},"roles":["reader"]}"""));
        var signature = B64(HMACSHA256.HashData(key ?? HmacKey, Encoding.ASCII.GetBytes(header + "." + claims)));
        return header + "." + claims + "." + signature;
    }

    private static JsonRpcSecurityOptions WithJwt()
    {
        var security = Teams();
        var jwt = new JsonRpcJwtOptions();
        jwt.Issuers.Add("https://issuer.test");
        jwt.Audiences.Add("jsonrpc");
        jwt.HmacKeys.Add(Convert.ToBase64String(HmacKey));
        security.Jwt = jwt;
        security.Roles["reader"] = new JsonRpcIdentityRules { Call = Allow("beta.echo") };
        return security;
    }

    [Fact]
    public async Task PostAndWebSocket_JwtBearer_AuthenticatesWithRolesAndBadJwtIs401()
    {
        await using var router = await StartAsync(WithJwt());
        await using var beta = await BetaAsync(router);
        var valid = Jwt("carol", DateTimeOffset.UtcNow.AddMinutes(10));

        var serving = ServeOneAsync(beta);
        using (var response = await PostAsync(router, "[" + WsClient.Request(1, "beta.echo", "[1]") + "," + WsClient.Request(2, "beta.secret", "[2]") + "]", valid))
        {
            var batch = await BodyAsync(response);
            Assert.Equal("beta.echo", await serving.Within());
            Json.IsResult(ById(batch, 1), "1");
            IsDenied(ById(batch, 2), "call", "method", "beta.secret", "carol");
        }

        await using (var ws = await WsClient.ConnectAsync(router.WebSocketUri, bearer: valid))
        {
            var stats = (await ws.CallAsync(1, "get_server_stats")).GetProperty("result");
            Assert.Equal(["carol"], stats.GetProperty("identities").EnumerateObject().Select(static p => p.Name));
        }

        foreach (var bad in new[]
        {
            Jwt("carol", DateTimeOffset.UtcNow.AddMinutes(-10)), // expired
            Jwt("carol", DateTimeOffset.UtcNow.AddMinutes(10), RandomNumberGenerator.GetBytes(32)), // another key
            valid[..valid.LastIndexOf('.')] + ".", // signature stripped
        })
        {
            using var response = await PostAsync(router, WsClient.Request(3, "beta.echo", "[3]"), bad);
            Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        }

        using var monitor = await PostAsync(router, WsClient.Request(4, "get_server_stats"), "ops-token");
        Assert.Equal(3, (await BodyAsync(monitor)).GetProperty("result").GetProperty("refusals").GetProperty("authentication").GetInt64());
    }

    [Fact]
    public async Task JsonRpcClient_AccessTokenOverTcpAndWebSocket_ActsAsItsIdentity()
    {
        await using var router = await StartAsync(Teams());
        await using var beta = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port, new JsonRpcClientOptions { AccessToken = "beta-token" }).Within();
        beta.AddRawMethod("beta.echo", static (p, _) => ValueTask.FromResult(p));
        beta.AddRawMethod("beta.secret", static (p, _) => ValueTask.FromResult(p));
        await beta.RegisterAsync("beta.1").Within();
        await using var alpha = await JsonRpcClient.ConnectAsync(router.WebSocketUri, new JsonRpcClientOptions { AccessToken = "alpha-token" }).Within();

        Assert.Equal("[1]", (await alpha.CallAsync<RawJson>("beta.echo", Json.Raw("[1]")).Within()).ToString());
        var refused = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => alpha.CallAsync<RawJson>("beta.secret", Json.Raw("[2]")).Within());
        Assert.Equal(RouterErrorCodes.PermissionDenied, refused.Code);
        var data = Json.Parse(refused.ErrorData.ToString());
        Assert.Equal("call", data.GetProperty("permission").GetString());
        Assert.Equal("alpha", data.GetProperty("identity").GetString());

        var name = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => alpha.RegisterAsync("beta.2").Within());
        Assert.Equal(RouterErrorCodes.PermissionDenied, name.Code);
        await alpha.RegisterAsync("alpha.1").Within();

        var stats = await beta.CallAsync<RawJson>("get_server_stats").Within();
        Assert.Equal(["beta"], Json.Parse(stats.ToString()).GetProperty("identities").EnumerateObject().Select(static p => p.Name));
    }

    [Fact]
    public async Task JsonRpcClient_WrongAccessTokenOverTcp_ConnectFails()
    {
        await using var router = await StartAsync(Teams());
        var options = new JsonRpcClientOptions { AccessToken = "wrong-token" };
        options.Reconnect.Enabled = false;
        var refused = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", router.Port, options).Within());
        Assert.Equal(RouterErrorCodes.AccessDenied, refused.Code);
        Assert.Equal(1, Json.Parse((await PostAsync(router, WsClient.Request(1, "get_server_stats"), "ops-token")
            .ContinueWith(t => t.Result.Content.ReadAsStringAsync()).Unwrap())).GetProperty("result").GetProperty("refusals").GetProperty("authentication").GetInt64());
    }

    [Fact]
    public async Task WebSocketAndPost_IdentityAtItsMaxConnections_RefusedWithQuotaExceeded()
    {
        var security = Teams();
        security.Identities["alpha"].Quota = new JsonRpcQuota { MaxConnections = 1 };
        await using var router = await StartAsync(security);
        await using var first = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "alpha-token");
        Json.IsResult(await first.CallAsync(1, "keepAlive"), "true");

        // A second WebSocket is told why, then closed.
        await using var second = await WsClient.ConnectAsync(router.WebSocketUri, bearer: "alpha-token");
        var refusal = await second.ReceiveJsonAsync();
        Json.IsError(refusal, RouterErrorCodes.QuotaExceeded);
        Assert.Equal("connections", refusal.GetProperty("error").GetProperty("data").GetProperty("permission").GetString());
        Assert.Equal("alpha", refusal.GetProperty("error").GetProperty("data").GetProperty("identity").GetString());
        await second.ReceiveCloseAsync();

        // A POST is a connection too: 429, with the refusal in the body.
        using var post = await PostAsync(router, WsClient.Request(2, "keepAlive"), "alpha-token");
        Assert.Equal(HttpStatusCode.TooManyRequests, post.StatusCode);
        var body = Json.Parse(await post.Content.ReadAsStringAsync());
        Json.IsError(body, RouterErrorCodes.QuotaExceeded);

        // The first is still served, and both refusals are counted against alpha.
        Json.IsResult(await first.CallAsync(3, "keepAlive"), "true");
        var stats = (await first.CallAsync(4, "get_server_stats")).GetProperty("result");
        Assert.Equal(2, stats.GetProperty("identities").GetProperty("alpha").GetProperty("refusals").GetInt64());
    }
}
