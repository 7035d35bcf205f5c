using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Server.Tests;

/// <summary>TLS client certificates mapped to identities, over the router's TCP endpoint with TLS (a self-signed server certificate).</summary>
public sealed class SecurityCertificateTests : IAsyncLifetime
{
    private readonly ITestOutputHelper _output;
    private readonly string _pfx = Path.Combine(Path.GetTempPath(), $"router-{Guid.NewGuid():N}.pfx");
    private readonly X509Certificate2 _server;
    private readonly X509Certificate2 _billing;
    private readonly X509Certificate2 _stranger;
    private WebApplication? _app;
    private int _port;
    private int _httpPort;

    public SecurityCertificateTests(ITestOutputHelper output)
    {
        _output = output;
        _server = SelfSigned("CN=localhost");
        _billing = SelfSigned("CN=billing-client");
        _stranger = SelfSigned("CN=stranger");
        File.WriteAllBytes(_pfx, _server.Export(X509ContentType.Pfx, "pw"));
    }

    private static X509Certificate2 SelfSigned(string subject)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1"), new Oid("1.3.6.1.5.5.7.3.2")], false));
        using var generated = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));

        // Through PFX, so that the private key is usable by the TLS stack.
        return X509CertificateLoader.LoadPkcs12(generated.Export(X509ContentType.Pfx, "pw"), "pw");
    }

    private JsonRpcSecurityOptions Security(string? thumbprint)
    {
        var security = new JsonRpcSecurityOptions();
        if (thumbprint is not null)
        {
            security.Certificates.Add(new JsonRpcCertificateIdentity { Identity = "billing", Thumbprint = thumbprint });
        }

        security.Tokens.Add(Token("ops", "ops-token"));
        security.Identities["billing"] = new JsonRpcIdentityRules { Provide = Allow("billing.>"), ClientNames = Allow("billing.*") };
        security.Identities["ops"] = new JsonRpcIdentityRules { Monitor = true };
        return security;
    }

    /// <param name="http">Also serve HTTPS (POST) and WSS at <c>/rpc</c> on another port, with the same certificate.</param>
    private async Task StartAsync(JsonRpcSecurityOptions security, bool http = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(new TestOutputLoggerProvider(_output));
        builder.Logging.SetMinimumLevel(LogLevel.Debug);
        builder.Services.AddJsonRpcRouter(o =>
        {
            o.Host = "127.0.0.1";
            o.Port = 0;
            o.CertificatePath = _pfx;
            o.CertificatePassword = "pw";
            o.ShutdownTimeout = TimeSpan.FromMilliseconds(500);
            o.Security = security;
            o.HttpPort = http ? 0 : null;
        });
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.ListenJsonRpcRouter());
        _app = builder.Build();
        if (http)
        {
            _app.MapJsonRpcRouter("/rpc");
        }

        await _app.StartAsync().WaitAsync(RouterHost.StartTimeout);
        var listeners = _app.Services.GetRequiredService<JsonRpcRouterListeners>();
        _port = listeners.Tcp!.Port;
        _httpPort = listeners.Http?.Port ?? 0;
    }

    private JsonRpcRouter Router => _app!.Services.GetRequiredService<JsonRpcRouter>();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync().WaitAsync(RouterHost.StopTimeout);
            await _app.DisposeAsync();
        }

        File.Delete(_pfx);
        _server.Dispose();
        _billing.Dispose();
        _stranger.Dispose();
    }

    [Fact]
    public async Task ClientCertificate_PinnedBySha256_ConnectionIsItsIdentity()
    {
        await StartAsync(Security(_billing.GetCertHashString(HashAlgorithmName.SHA256)));
        await using var billing = await TlsClient.ConnectAsync(_port, _billing, _server);

        // No authenticate call: the certificate already says who it is.
        Answer.IsResult(await billing.CallAsync("register_client", """{"name":"billing.1"}"""), "true");
        Answer.IsResult(await billing.CallAsync("register_method", """{"method":"billing.charge"}"""), "true");
        IsDenied(await billing.CallAsync("register_method", """{"method":"web.page"}"""), "provide", "method", "web.page", "billing");
        var stats = (await billing.CallAsync("get_server_stats")).GetProperty("result");
        Assert.Equal(1, IdentityStats(stats, "billing").GetProperty("connections").GetInt32());
    }

    [Fact]
    public async Task ClientCertificate_UnmappedOrNone_IsUnauthenticatedButMayUseAToken()
    {
        await StartAsync(Security(_billing.GetCertHashString(HashAlgorithmName.SHA256)));
        await using var stranger = await TlsClient.ConnectAsync(_port, _stranger, _server);
        await using var none = await TlsClient.ConnectAsync(_port, null, _server);

        foreach (var client in new[] { stranger, none })
        {
            IsRefusal(await client.CallAsync("register_client", """{"name":"billing.2"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
                "method", "billing.2", identity: null);
        }

        Answer.IsResult(await none.CallAsync("authenticate", """{"token":"ops-token"}"""), """{"identity":"ops","roles":[]}""");
    }

    private bool IsOurServer(X509Certificate? certificate) => certificate is not null && certificate.GetCertHashString() == _server.Thumbprint;

    private async Task<HttpResponseMessage> PostAsync(X509Certificate2? client, string body)
    {
        using var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback = (_, certificate, _, _) => IsOurServer(certificate) };
        if (client is not null)
        {
            handler.ClientCertificateOptions = ClientCertificateOption.Manual;
            handler.ClientCertificates.Add(client);
        }

        using var http = new HttpClient(handler) { Timeout = Bounded.Timeout };
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        var response = await http.PostAsync(new Uri($"https://127.0.0.1:{_httpPort}/rpc"), content).Within();
        await response.Content.LoadIntoBufferAsync().Within();
        return response;
    }

    [Fact]
    public async Task ClientCertificate_OverHttpsPost_RequestIsItsIdentityAndUnmappedIs401()
    {
        await StartAsync(Security(_billing.GetCertHashString(HashAlgorithmName.SHA256)), http: true);

        using var mapped = await PostAsync(_billing, "[" + string.Join(",",
            LineClient.Request(1, "register_client", """{"name":"billing.1"}"""),
            LineClient.Request(2, "register_method", """{"method":"web.page"}"""),
            LineClient.Request(3, "get_server_stats")) + "]");
        Assert.Equal(HttpStatusCode.OK, mapped.StatusCode);
        var batch = JsonDocument.Parse(await mapped.Content.ReadAsStringAsync()).RootElement;
        Answer.IsResult(ById(batch, 1), "true");
        IsDenied(ById(batch, 2), "provide", "method", "web.page", "billing");
        Assert.Equal(["billing"], ById(batch, 3).GetProperty("result").GetProperty("identities").EnumerateObject().Select(static p => p.Name));

        foreach (var client in new[] { _stranger, null })
        {
            using var refused = await PostAsync(client, LineClient.Request(4, "get_server_stats"));
            Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        }
    }

    [Fact]
    public async Task ClientCertificate_OverWss_ConnectionIsItsIdentity()
    {
        await StartAsync(Security(_billing.GetCertHashString(HashAlgorithmName.SHA256)), http: true);
        var uri = new Uri($"wss://127.0.0.1:{_httpPort}/rpc");
        await using var billing = await Testing.Web.WsClient.ConnectAsync(uri, configure: o =>
        {
            o.ClientCertificates.Add(_billing);
            o.RemoteCertificateValidationCallback = (_, certificate, _, _) => IsOurServer(certificate);
        });
        await using var stranger = await Testing.Web.WsClient.ConnectAsync(uri, configure: o =>
        {
            o.ClientCertificates.Add(_stranger);
            o.RemoteCertificateValidationCallback = (_, certificate, _, _) => IsOurServer(certificate);
        });

        // No authenticate call: the certificate shown at the TLS handshake says who it is.
        Answer.IsResult(await billing.CallAsync(1, "register_client", """{"name":"billing.1"}"""), "true");
        Answer.IsResult(await billing.CallAsync(2, "register_method", """{"method":"billing.charge"}"""), "true");
        IsDenied(await billing.CallAsync(3, "register_method", """{"method":"web.page"}"""), "provide", "method", "web.page", "billing");
        var stats = (await billing.CallAsync(4, "get_server_stats")).GetProperty("result");
        Assert.Equal(1, IdentityStats(stats, "billing").GetProperty("connections").GetInt32());

        // An unmapped certificate is no identity: unauthenticated, as without one.
        IsRefusal(await stranger.CallAsync(1, "register_client", """{"name":"billing.2"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "billing.2", identity: null);
    }

    [Theory]
    [InlineData("SHA256")]
    [InlineData("SHA1")]
    public async Task UpdateSecurity_CertificateStillMapped_KeepsItsIdentity(string hash)
    {
        var thumbprint = hash == "SHA1" ? _billing.Thumbprint : _billing.GetCertHashString(HashAlgorithmName.SHA256);
        await StartAsync(Security(thumbprint));
        await using var billing = await TlsClient.ConnectAsync(_port, _billing, _server);
        Answer.IsResult(await billing.CallAsync("register_client", """{"name":"billing.1"}"""), "true");
        Answer.IsResult(await billing.CallAsync("register_method", """{"method":"billing.charge"}"""), "true");

        Router.UpdateSecurity(Security(thumbprint));

        Answer.IsResult(await billing.CallAsync("register_method", """{"method":"billing.refund"}"""), "true");
        var methods = MethodNames((await billing.CallAsync("list_methods")).GetProperty("result"));
        Assert.Equal(["billing.charge", "billing.refund"], methods);

        // With its mapping gone it is no one.
        Router.UpdateSecurity(Security(null));
        IsRefusal(await billing.CallAsync("register_method", """{"method":"billing.x"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "billing.x", identity: null);
    }

    private sealed record Ca(X509Certificate2 Certificate, RSA Key, string PemFile);

    private static Ca MakeCa(string subject)
    {
        var key = RSA.Create(2048);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        var pem = Path.Combine(Path.GetTempPath(), $"ca-{Guid.NewGuid():N}.pem");
        File.WriteAllText(pem, certificate.ExportCertificatePem());
        return new Ca(certificate, key, pem);
    }

    private static X509Certificate2 Issue(Ca ca, string subject)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
        using var issued = request.Create(ca.Certificate, DateTimeOffset.UtcNow.AddMinutes(-1), DateTimeOffset.UtcNow.AddMinutes(50), RandomNumberGenerator.GetBytes(8));
        using var withKey = issued.CopyWithPrivateKey(key);
        return X509CertificateLoader.LoadPkcs12(withKey.Export(X509ContentType.Pfx, "pw"), "pw");
    }

    private JsonRpcSecurityOptions BySubject(string subject, string caFile)
    {
        var security = Security(null);
        security.Certificates.Add(new JsonRpcCertificateIdentity { Identity = "billing", Subject = subject });
        security.ClientCertificateCaFile = caFile;
        return security;
    }

    [Fact]
    public async Task ClientCertificate_SubjectChainingToTheCa_MapsIdentityAndOtherwiseNot()
    {
        var ca = MakeCa("CN=Test Client CA");
        var other = MakeCa("CN=Other CA");
        try
        {
            using var issued = Issue(ca, "CN=billing-client, O=Example");
            using var forged = Issue(other, "CN=billing-client, O=Example"); // same subject, wrong CA
            await StartAsync(BySubject(issued.Subject, ca.PemFile));

            await using var billing = await TlsClient.ConnectAsync(_port, issued, _server);
            Answer.IsResult(await billing.CallAsync("register_client", """{"name":"billing.1"}"""), "true");
            await using var impostor = await TlsClient.ConnectAsync(_port, forged, _server);
            IsRefusal(await impostor.CallAsync("register_client", """{"name":"billing.2"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
                "method", "billing.2", identity: null);
        }
        finally
        {
            foreach (var c in new[] { ca, other })
            {
                File.Delete(c.PemFile);
                c.Certificate.Dispose();
                c.Key.Dispose();
            }
        }
    }

    [Fact]
    public async Task UpdateSecurity_ClientCaReplaced_SubjectMappedConnectionBecomesUnauthenticated()
    {
        var ca = MakeCa("CN=Test Client CA");
        var next = MakeCa("CN=Next Client CA");
        try
        {
            using var issued = Issue(ca, "CN=billing-client, O=Example");
            await StartAsync(BySubject(issued.Subject, ca.PemFile));
            await using var billing = await TlsClient.ConnectAsync(_port, issued, _server);
            Answer.IsResult(await billing.CallAsync("register_client", """{"name":"billing.1"}"""), "true");

            // The same CA again: still billing.
            Router.UpdateSecurity(BySubject(issued.Subject, ca.PemFile));
            Answer.IsResult(await billing.CallAsync("register_method", """{"method":"billing.charge"}"""), "true");

            // The CA is no longer trusted: its certificates authenticate no one.
            Router.UpdateSecurity(BySubject(issued.Subject, next.PemFile));
            IsRefusal(await billing.CallAsync("register_method", """{"method":"billing.refund"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
                "method", "billing.refund", identity: null);
        }
        finally
        {
            foreach (var c in new[] { ca, next })
            {
                File.Delete(c.PemFile);
                c.Certificate.Dispose();
                c.Key.Dispose();
            }
        }
    }

    /// <summary>A line client over TLS, optionally presenting a client certificate.</summary>
    private sealed class TlsClient : IAsyncDisposable
    {
        private readonly TcpClient _tcp;
        private readonly SslStream _tls;
        private readonly StreamReader _reader;
        private int _nextId;

        private TlsClient(TcpClient tcp, SslStream tls)
        {
            _tcp = tcp;
            _tls = tls;
            _reader = new StreamReader(tls, Encoding.UTF8);
        }

        public static async Task<TlsClient> ConnectAsync(int port, X509Certificate2? certificate, X509Certificate2 server)
        {
            var tcp = new TcpClient();
            await tcp.ConnectAsync(IPAddress.Loopback, port).WaitAsync(LineClient.ReadTimeout);
            var tls = new SslStream(tcp.GetStream(), false);
            await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                ClientCertificates = certificate is null ? null : [certificate],
                RemoteCertificateValidationCallback = (_, presented, _, _) => presented?.GetCertHashString() == server.GetCertHashString(),
            }).WaitAsync(LineClient.ReadTimeout);
            return new TlsClient(tcp, tls);
        }

        public async Task<JsonElement> CallAsync(string method, string? @params = null)
        {
            var id = ++_nextId;
            await _tls.WriteAsync(Encoding.UTF8.GetBytes(LineClient.Request(id, method, @params) + "\n")).AsTask().WaitAsync(LineClient.ReadTimeout);
            var line = await _reader.ReadLineAsync().WaitAsync(LineClient.ReadTimeout) ?? throw new IOException("closed");
            var answer = JsonDocument.Parse(line).RootElement.Clone();
            Assert.Equal(id, answer.GetProperty("id").GetInt32());
            return answer;
        }

        public async ValueTask DisposeAsync()
        {
            await _tls.DisposeAsync();
            _tcp.Dispose();
        }
    }
}
