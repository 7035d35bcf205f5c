using System.Security.Cryptography;
using System.Text;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Server.Tests;

/// <summary>
/// JWT bearer tokens given to <c>authenticate</c>: keys made here (RSA, ECDsa, HMAC, a JWKS file), tokens signed here,
/// and every way a token can be wrong refused with the connection closed and the reason in the audit log.
/// </summary>
public sealed class SecurityJwtTests : IDisposable
{
    private const string Issuer = "https://issuer.test";
    private const string Audience = "jsonrpc";

    private readonly ITestOutputHelper _output;
    private readonly string _directory = Path.Combine(Path.GetTempPath(), $"jwt-tests-{Guid.NewGuid():N}");
    private readonly RSA _rsa = RSA.Create(2048);
    private readonly RSA _jwksRsa = RSA.Create(2048);
    private readonly RSA _stranger = RSA.Create(2048);
    private readonly ECDsa _ec = ECDsa.Create(ECCurve.NamedCurves.nistP256);
    private readonly byte[] _hmac = RandomNumberGenerator.GetBytes(32);

    public SecurityJwtTests(ITestOutputHelper output)
    {
        _output = output;
        Directory.CreateDirectory(_directory);
        File.WriteAllText(RsaKeyFile, _rsa.ExportSubjectPublicKeyInfoPem());
        File.WriteAllText(EcKeyFile, _ec.ExportSubjectPublicKeyInfoPem());
        var parameters = _jwksRsa.ExportParameters(includePrivateParameters: false);
        File.WriteAllText(JwksFile, $$"""
            {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"jwks-1","n":"{{Base64UrlEncoder.Encode(parameters.Modulus)}}","e":"{{Base64UrlEncoder.Encode(parameters.Exponent)}}"}]}
            """);
    }

    private string RsaKeyFile => Path.Combine(_directory, "rsa.pem");

    private string EcKeyFile => Path.Combine(_directory, "ec.pem");

    private string JwksFile => Path.Combine(_directory, "jwks.json");

    public void Dispose()
    {
        _rsa.Dispose();
        _jwksRsa.Dispose();
        _stranger.Dispose();
        _ec.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private JsonRpcSecurityOptions Security(Action<JsonRpcJwtOptions>? configure = null)
    {
        var jwt = new JsonRpcJwtOptions();
        jwt.Issuers.Add(Issuer);
        jwt.Audiences.Add(Audience);
        jwt.KeyFiles.Add(RsaKeyFile);
        jwt.KeyFiles.Add(EcKeyFile);
        jwt.JwksFile = JwksFile;
        jwt.HmacKeys.Add(Convert.ToBase64String(_hmac));
        configure?.Invoke(jwt);
        var security = new JsonRpcSecurityOptions { Jwt = jwt };

        // Everyone may call nothing by default; the reader role may call svc.read.
        security.Default = new JsonRpcIdentityRules { Call = Allow() };
        security.Roles["reader"] = new JsonRpcIdentityRules { Call = Allow("svc.read") };
        security.Tokens.Add(Token("svc", "svc-token"));
        security.Identities["svc"] = new JsonRpcIdentityRules { Call = Allow(">") };
        return security;
    }

    private static string Sign(SigningCredentials credentials, string subject = "alice", string[]? roles = null, string issuer = Issuer,
        string audience = Audience, DateTime? notBefore = null, DateTime? expires = null, Dictionary<string, object>? claims = null)
    {
        var now = DateTime.UtcNow;
        var all = new Dictionary<string, object> { ["sub"] = subject };
        if (roles is not null)
        {
            all["roles"] = roles;
        }

        foreach (var (key, value) in claims ?? [])
        {
            all[key] = value;
        }

        var nbf = notBefore ?? now.AddMinutes(-1);
        return new JsonWebTokenHandler { SetDefaultTimesOnTokenCreation = false }.CreateToken(new SecurityTokenDescriptor
        {
            Issuer = issuer,
            Audience = audience,
            Claims = all,
            IssuedAt = nbf,
            NotBefore = nbf,
            Expires = expires ?? now.AddMinutes(10),
            SigningCredentials = credentials,
        });
    }

    private SigningCredentials Rs256 => new(new RsaSecurityKey(_rsa), SecurityAlgorithms.RsaSha256);

    private SigningCredentials Es256 => new(new ECDsaSecurityKey(_ec), SecurityAlgorithms.EcdsaSha256);

    private SigningCredentials Hs256 => new(new SymmetricSecurityKey(_hmac), SecurityAlgorithms.HmacSha256);

    private SigningCredentials Jwks => new(new RsaSecurityKey(_jwksRsa) { KeyId = "jwks-1" }, SecurityAlgorithms.RsaSha256);

    private static string Base64Url(string json) => Base64UrlEncoder.Encode(Encoding.UTF8.GetBytes(json));

    [Theory]
    [InlineData("RS256")]
    [InlineData("ES256")]
    [InlineData("HS256")]
    [InlineData("JWKS")]
    public async Task Authenticate_ValidJwt_AuthenticatesSubjectWithRoles(string kind)
    {
        var credentials = kind switch { "RS256" => Rs256, "ES256" => Es256, "HS256" => Hs256, _ => Jwks };
        await using var server = await StartAsync(Security(), _output);
        await using var client = await server.ConnectAsync();

        var answer = await client.CallAsync("authenticate", $$"""{"token":"{{Sign(credentials, roles: ["reader", "extra"])}}"}""");

        Answer.IsResult(answer, """{"identity":"alice","roles":["extra","reader"]}""");
        Answer.IsResult(await client.CallAsync("register_client", """{"name":"alice.1"}"""), "true");
        Assert.Equal(1, IdentityStats(await client.StatsAsync(), "alice").GetProperty("connections").GetInt32());
    }

    [Fact]
    public async Task Authenticate_RolesClaim_GivesTheRolesRules()
    {
        await using var server = await StartAsync(Security(), _output);
        await using var svc = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await svc.ProvideAsync("svc.read");
        await svc.ProvideAsync("svc.write");
        await using var reader = await server.ConnectAsync();
        await using var plain = await server.ConnectAsync();

        Answer.IsResult(await reader.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256, "alice", roles: ["reader"])}}"}"""),
            """{"identity":"alice","roles":["reader"]}""");
        Answer.IsResult(await plain.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256, "bob")}}"}"""), """{"identity":"bob","roles":[]}""");

        await reader.SendAsync(LineClient.Request(1, "svc.read", "[]"));
        Assert.Equal("svc.read", (await svc.ServeOneAsync("1")).GetProperty("method").GetString());
        Answer.IsResult(await reader.ReadAsync(), "1");
        IsDenied(await reader.CallAsync("svc.write", "[]"), "call", "method", "svc.write", "alice");

        // Without the role, the default's empty allow list allows nothing.
        IsDenied(await plain.CallAsync("svc.read", "[]"), "call", "method", "svc.read", "bob");
    }

    [Fact]
    public async Task Authenticate_CustomIdentityAndRolesClaims_AreRead()
    {
        await using var server = await StartAsync(Security(jwt =>
        {
            jwt.IdentityClaim = "client_id";
            jwt.RolesClaim = "groups";
        }), _output);
        await using var client = await server.ConnectAsync();

        var token = Sign(Hs256, claims: new() { ["client_id"] = "billing-service", ["groups"] = "reader" });
        Answer.IsResult(await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}"""), """{"identity":"billing-service","roles":["reader"]}""");
    }

    [Fact]
    public async Task Authenticate_JwtWithoutIdentityClaim_IsRefused()
    {
        await using var server = await StartAsync(Security(jwt => jwt.IdentityClaim = "client_id"), _output);
        await using var client = await server.ConnectAsync();
        Answer.IsError(await client.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256)}}"}"""), RouterErrorCodes.AccessDenied);
        await client.AssertClosedAsync();
    }

    public static TheoryData<string, string?> Refused => new()
    {
        { "expired", "token expired" },
        { "not yet valid", "token not yet valid" },
        { "wrong signature", "bad signature" },
        { "wrong issuer", "wrong issuer" },
        { "wrong audience", "wrong audience" },
        { "alg none", null },
        { "alg none unsigned claims", null },
        { "hmac with the rsa public key", null },
        { "malformed", null },
        { "garbage", "unknown token" },
        { "rs384", null },
    };

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task Authenticate_BadJwt_IsAccessDeniedClosedAndAudited(string kind, string? reason)
    {
        var now = DateTime.UtcNow;
        var header = Base64Url("""{"alg":"none","typ":"JWT"}""");
        var claims = Base64Url($$"""{"sub":"alice","iss":"{{Issuer}}","aud":"{{Audience}}","exp":{{new DateTimeOffset(now.AddMinutes(10)).ToUnixTimeSeconds()}}}""");
        var token = kind switch
        {
            "expired" => Sign(Rs256, notBefore: now.AddMinutes(-20), expires: now.AddMinutes(-10)),
            "not yet valid" => Sign(Rs256, notBefore: now.AddMinutes(10), expires: now.AddMinutes(20)),
            "wrong signature" => Sign(new SigningCredentials(new RsaSecurityKey(_stranger), SecurityAlgorithms.RsaSha256)),
            "wrong issuer" => Sign(Rs256, issuer: "https://evil.test"),
            "wrong audience" => Sign(Rs256, audience: "someone-else"),
            "alg none" => header + "." + claims + ".",
            "alg none unsigned claims" => header + "." + claims,
            "hmac with the rsa public key" => Sign(new SigningCredentials(
                new SymmetricSecurityKey(Encoding.UTF8.GetBytes(File.ReadAllText(RsaKeyFile))), SecurityAlgorithms.HmacSha256)),
            "malformed" => "eyJhbGciOiJSUzI1NiJ9.not-base64!.x",
            "rs384" => Sign(new SigningCredentials(new RsaSecurityKey(_rsa), SecurityAlgorithms.RsaSha384)),
            _ => "eyJ-not-a-jwt-at-all",
        };
        var capture = new CapturingLoggerProvider();
        await using var server = await StartAsync(Security(), _output, capture);
        await using var client = await server.ConnectAsync();

        var answer = await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}""");

        Answer.IsError(answer, RouterErrorCodes.AccessDenied);
        Assert.DoesNotContain("alice", answer.ToString(), StringComparison.Ordinal); // the client is not told why
        await client.AssertClosedAsync();
        var line = Assert.Single(RefusalLines(capture));
        Assert.StartsWith("Refused (authentication): identity (anonymous)", line, StringComparison.Ordinal);
        if (reason is not null)
        {
            Assert.Contains(": " + reason + ".", line, StringComparison.Ordinal);
        }

        Assert.DoesNotContain(capture.Messages, m => m.Contains(token, StringComparison.Ordinal));
        await using var svc = await server.ConnectAsAsync("svc-token", "svc");
        Assert.Equal(1, Refusals(await svc.StatsAsync(), "authentication"));
    }

    [Fact]
    public async Task Authenticate_ExpiredWithinClockSkew_IsAccepted()
    {
        await using var server = await StartAsync(Security(jwt => jwt.ClockSkew = TimeSpan.FromMinutes(5)), _output);
        await using var client = await server.ConnectAsync();
        var token = Sign(Rs256, notBefore: DateTime.UtcNow.AddMinutes(-10), expires: DateTime.UtcNow.AddMinutes(-1));
        Answer.IsResult(await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}"""), """{"identity":"alice","roles":[]}""");
    }

    [Fact]
    public async Task Jwt_ExpiresWhileTheConnectionStaysOpen_ItsRegistrationsGoAndItMustAuthenticateAgain()
    {
        await using var server = await StartAsync(Security(jwt => jwt.ClockSkew = TimeSpan.Zero), _output);
        await using var svc = await server.ConnectAsAsync("svc-token", "svc", "svc.1");

        // The token lives a few seconds (JWT times are whole seconds). Should the machine be so slow that it expired
        // before the steps that need it valid were done, the next attempt gives it twice as long.
        LineClient? alice = null;
        var expires = DateTime.MinValue;
        for (var lifetime = 4; alice is null; lifetime *= 2)
        {
            Assert.True(lifetime <= 64, "The token expired before the connection could use it, even with a minute to live.");
            var now = DateTime.UtcNow;
            expires = new DateTime(now.Ticks - (now.Ticks % TimeSpan.TicksPerSecond), DateTimeKind.Utc).AddSeconds(lifetime);
            var client = await server.ConnectAsync();
            var authenticated = await client.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256, expires: expires)}}"}""");
            var named = await client.CallAsync("register_client", """{"name":"alice.1"}""");
            var registered = await client.CallAsync("register_method", """{"method":"alice.work"}""");
            if (DateTime.UtcNow < expires - TimeSpan.FromMilliseconds(500))
            {
                Answer.IsResult(authenticated, """{"identity":"alice","roles":[]}""");
                Answer.IsResult(named, "true");
                Answer.IsResult(registered, "true");
                alice = client;
            }
            else
            {
                await client.DisposeAsync();
            }
        }

        await using var _ = alice;
        Assert.Contains("alice.work", MethodNames((await svc.CallAsync("list_methods")).GetProperty("result")));

        // When the token expires, its registration goes at once (the connection sends nothing meanwhile), ...
        while (DateTime.UtcNow < expires)
        {
            await Task.Delay(100);
        }

        await Eventually.TrueAsync(
            async () => !MethodNames((await svc.CallAsync("list_methods")).GetProperty("result")).Contains("alice.work"),
            "alice.work is no longer provided");
        Answer.IsError(await svc.CallAsync("alice.work", "[]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);

        // ... the connection stays open but may do nothing until it authenticates again, and is told why.
        var data = IsRefusal(await alice.CallAsync("register_method", """{"method":"alice.work"}"""), RouterErrorCodes.NotAuthenticated,
            "not_authenticated", "method", "alice.work", identity: null);
        Assert.Contains("expired", data.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Answer.IsResult(await alice.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256)}}"}"""), """{"identity":"alice","roles":[]}""");
        Answer.IsResult(await alice.CallAsync("register_method", """{"method":"alice.work"}"""), "true");
    }

    [Fact]
    public async Task Jwt_WithoutAudiences_WarnsAtStartAndAcceptsAnyAudience()
    {
        using var log = new CapturingLoggerProvider();
        await using var server = await StartAsync(Security(jwt => jwt.Audiences.Clear()), _output, log);
        Assert.Contains(log.Messages, m => m.Contains("Security:Jwt has no Audiences", StringComparison.Ordinal));
        Assert.DoesNotContain(log.Messages, m => m.Contains("Security:Jwt has no Issuers", StringComparison.Ordinal));

        await using var client = await server.ConnectAsync();
        var token = Sign(Rs256, audience: "some-other-service");
        Answer.IsResult(await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}"""), """{"identity":"alice","roles":[]}""");
    }

    [Fact]
    public async Task RegisterClient_WithJwt_AuthenticatesAndRegisters()
    {
        await using var server = await StartAsync(Security(), _output);
        await using var client = await server.ConnectAsync();
        Answer.IsResult(await client.CallAsync("register_client", $$"""{"name":"alice.1","token":"{{Sign(Es256)}}"}"""), "true");
        Assert.Equal(["alice"], (await client.StatsAsync()).GetProperty("identities").EnumerateObject().Select(static p => p.Name));
    }

    [Fact]
    public void Create_BadJwtConfiguration_NamesEachProblem()
    {
        var security = new JsonRpcSecurityOptions { Jwt = new JsonRpcJwtOptions { JwksFile = Path.Combine(_directory, "missing.json") } };
        security.Jwt.HmacKeys.Add(Convert.ToBase64String(new byte[16]));
        security.Jwt.KeyFiles.Add(JwksFile); // not PEM

        var error = Assert.Throws<InvalidOperationException>(() => new JsonRpcRouter(Microsoft.Extensions.Options.Options.Create(new JsonRpcRouterOptions { Security = security })));

        Assert.Contains("Security:Jwt:HmacKeys:0", error.Message, StringComparison.Ordinal);
        Assert.Contains("Security:Jwt:KeyFiles:0", error.Message, StringComparison.Ordinal);
        Assert.Contains("Security:Jwt:JwksFile", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UpdateSecurity_JwtSigningKeyRemoved_ConnectionBecomesUnauthenticated()
    {
        await using var server = await StartAsync(Security(), _output);
        await using var rsa = await server.ConnectAsync();
        await using var hmac = await server.ConnectAsync();
        Answer.IsResult(await rsa.CallAsync("authenticate", $$"""{"token":"{{Sign(Rs256, "alice")}}"}"""), """{"identity":"alice","roles":[]}""");
        Answer.IsResult(await hmac.CallAsync("authenticate", $$"""{"token":"{{Sign(Hs256, "bob")}}"}"""), """{"identity":"bob","roles":[]}""");

        // The RSA key is rotated out (say it leaked): tokens it signed authenticate no one any more, the others still do.
        server.Router.UpdateSecurity(Security(jwt => jwt.KeyFiles.Remove(RsaKeyFile)));

        IsRefusal(await rsa.CallAsync("register_client", """{"name":"alice.1"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "alice.1", identity: null);
        Answer.IsResult(await hmac.CallAsync("register_client", """{"name":"bob.1"}"""), "true");
    }

    [Fact]
    public async Task UpdateSecurity_JwtIssuerNoLongerTrusted_ConnectionBecomesUnauthenticated()
    {
        await using var server = await StartAsync(Security(), _output);
        await using var client = await server.ConnectAsync();
        Answer.IsResult(await client.CallAsync("authenticate", $$"""{"token":"{{Sign(Hs256, "alice")}}"}"""), """{"identity":"alice","roles":[]}""");

        server.Router.UpdateSecurity(Security(jwt =>
        {
            jwt.Issuers.Clear();
            jwt.Issuers.Add("https://new-issuer.test");
        }));

        IsRefusal(await client.CallAsync("register_client", """{"name":"alice.1"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "alice.1", identity: null);
    }
}
