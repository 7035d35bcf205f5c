using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.RegularExpressions;
using JsonRpc.Server;
using JsonRpc.Web.Tests.Infrastructure;

namespace JsonRpc.Web.Tests;

/// <summary>The standalone router as a user runs it: its command line, its first lines, its HTTP port.</summary>
public sealed partial class StandaloneRouterWebTests(ITestOutputHelper output)
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);

    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)$")]
    private static partial Regex TcpLine();

    [GeneratedRegex(@"listening on (https?)://127\.0\.0\.1:(\d+)/rpc \(HTTP POST\) and (wss?)://127\.0\.0\.1:(\d+)/rpc \(WebSocket\)")]
    private static partial Regex HttpLine();

    [GeneratedRegex(@"listening on tls://127\.0\.0\.1:(\d+)$")]
    private static partial Regex TlsLine();

    [Fact]
    public async Task Help_ListsEveryOptionWithItsDefault_ExitsZero()
    {
        await using var router = RouterProcess.Start("--help");
        Assert.Equal(0, await router.WaitForExitAsync(StartTimeout));
        var help = router.Output;
        output.WriteLine(help);
        foreach (var option in JsonRpcRouterConfiguration.CommandLineSwitchMappings.Keys)
        {
            var line = help.Split('\n').SingleOrDefault(l => l.TrimStart().StartsWith(option + " ", StringComparison.Ordinal));
            Assert.True(line is not null, $"--help does not list {option}");
            Assert.Contains("Default: ", line);
        }

        Assert.Contains("--http_port <port>", help);
        Assert.Contains("Default: 8080.", help);
        Assert.DoesNotContain("listening", help);
    }

    [Theory]
    [InlineData("--bogus_option", "5")]
    [InlineData("--http-port", "9000")]
    [InlineData("--JsonRpcRouter:NoSuchSetting=1")]
    public async Task UnknownOption_ExitsNonZeroWithOneLineNamingIt(params string[] args)
    {
        await using var router = RouterProcess.Start(args);
        Assert.NotEqual(0, await router.WaitForExitAsync(StartTimeout));
        var error = router.Error.Trim();
        Assert.Single(error.Split('\n'));
        Assert.Contains("unknown option '" + args[0].Split('=')[0] + "'", error);
        Assert.Empty(router.Output);
    }

    [Theory]
    [InlineData("port", "abc")]
    [InlineData("http_port", "99999")]
    [InlineData("call_timeout_ms", "-5")]
    public async Task BadValue_ExitsNonZeroWithOneLineNamingIt(string option, string value)
    {
        await using var router = RouterProcess.Start("--port", "0", "--" + option, value);
        Assert.NotEqual(0, await router.WaitForExitAsync(StartTimeout));
        var error = router.Error.Trim();
        output.WriteLine(error);
        Assert.Single(error.Split('\n'));
        Assert.Contains(value, error);
        Assert.DoesNotContain("listening", router.Output);
    }

    [Fact]
    public async Task HttpPort_ServesRpcHealthzAndDashboard_FirstLinesSayWhere()
    {
        await using var router = RouterProcess.Start("--port", "0", "--http_port", "0", "--shutdown_timeout_ms", "200");
        try
        {
            var tcpPort = int.Parse((await router.WaitForLineAsync(TcpLine(), StartTimeout)).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            var http = await router.WaitForLineAsync(HttpLine(), StartTimeout);
            Assert.Equal("http", http.Groups[1].Value);
            Assert.Equal("ws", http.Groups[3].Value);
            Assert.Equal(http.Groups[2].Value, http.Groups[4].Value);
            var httpPort = int.Parse(http.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture);
            Assert.NotEqual(tcpPort, httpPort);
            var lines = router.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            Assert.Contains("tcp://127.0.0.1:" + tcpPort, lines[0]);
            Assert.DoesNotContain("Now listening on", router.Output);

            using var client = new HttpClient { Timeout = Bounded.Timeout };
            var baseUri = new Uri($"http://127.0.0.1:{httpPort}/");
            using (var health = await client.GetAsync(new Uri(baseUri, "healthz")).Within())
            {
                Assert.Equal(HttpStatusCode.OK, health.StatusCode);
                Assert.Equal("Healthy", (await health.Content.ReadAsStringAsync()).Trim());
            }

            var page = await client.GetStringAsync(baseUri).Within();
            Assert.Contains("<title>JSON-RPC router</title>", page);
            Assert.Contains("content=\"/rpc\"", page);
            Assert.Contains("WebSocket", await client.GetStringAsync(new Uri(baseUri, "dashboard.js")).Within());

            var post = new StringContent("""{"jsonrpc":"2.0","id":1,"method":"keepAlive"}""", Encoding.UTF8, "application/json");
            using (var answer = await client.PostAsync(new Uri(baseUri, "rpc"), post).Within())
            {
                Json.IsResult(Json.Parse(await answer.Content.ReadAsStringAsync()), "true");
            }

            await using (var ws = await WsClient.ConnectAsync(new Uri($"ws://127.0.0.1:{httpPort}/rpc")))
            {
                var stats = await ws.CallAsync(1, "get_server_stats");
                Assert.True(stats.GetProperty("result").GetProperty("connections_total").GetInt64() >= 2);
            }

            router.Interrupt();
            Assert.Equal(0, await router.WaitForExitAsync(StartTimeout));
        }
        finally
        {
            output.WriteLine(router.Output + router.Error);
        }
    }

    [Fact]
    public async Task Certificate_AppliesToHttpPortToo_HttpsAndWss()
    {
        var pfx = Path.Combine(Path.GetTempPath(), $"jsonrpc-web-{Guid.NewGuid():N}.pfx");
        await File.WriteAllBytesAsync(pfx, SelfSignedCertificate().Export(X509ContentType.Pfx, "pw"));
        await using var router = RouterProcess.Start("--port", "0", "--http_port", "0", "--certificate_path", pfx, "--certificate_password", "pw");
        try
        {
            await router.WaitForLineAsync(TlsLine(), StartTimeout);
            var http = await router.WaitForLineAsync(HttpLine(), StartTimeout);
            Assert.Equal("https", http.Groups[1].Value);
            Assert.Equal("wss", http.Groups[3].Value);

            using var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback = HttpClientHandler.DangerousAcceptAnyServerCertificateValidator };
            using var client = new HttpClient(handler) { Timeout = Bounded.Timeout };
            var uri = new Uri($"https://127.0.0.1:{http.Groups[2].Value}/rpc");
            using var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = new StringContent("""{"jsonrpc":"2.0","id":1,"method":"keepAlive"}""") };
            request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
            using var answer = await client.SendAsync(request).Within();
            Json.IsResult(Json.Parse(await answer.Content.ReadAsStringAsync()), "true");
        }
        finally
        {
            output.WriteLine(router.Output + router.Error);
            await router.DisposeAsync();
            File.Delete(pfx);
        }
    }

    internal static X509Certificate2 SelfSignedCertificate()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=127.0.0.1", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
    }
}
