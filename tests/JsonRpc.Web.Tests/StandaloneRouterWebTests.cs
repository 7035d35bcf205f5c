using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.RegularExpressions;
using JsonRpc.Server;
using JsonRpc.Testing.Web;
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

    [Fact]
    public async Task Version_PrintsTheVersion_ExitsZero()
    {
        await using var router = RouterProcess.Start("--version");
        Assert.Equal(0, await router.WaitForExitAsync(StartTimeout));
        Assert.Matches(@"^jsonrpc-router \d+\.\d+\.\d+\S*$", router.Output.Trim());
        Assert.DoesNotContain("listening", router.Output);
    }

    // Bad usage of any kind (an unknown option, a value that cannot be read or used) exits with one code: 64, as
    // sysexits' EX_USAGE.
    private const int UsageError = 64;

    [Theory]
    [InlineData(null, "--bogus_option", "5")]
    [InlineData("--http_port", "--http-port", "9000")]
    [InlineData("--http_port", "--HttpPort", "9000")]
    [InlineData("--max_message_size", "--max_mesage_size", "9000")]
    [InlineData(null, "--JsonRpcRouter:NoSuchSetting=1")]
    public async Task UnknownOption_ExitsWithUsageErrorAndOneLineNamingIt_SuggestsTheNearest(string? suggestion, params string[] args)
    {
        await using var router = RouterProcess.Start(args);
        Assert.Equal(UsageError, await router.WaitForExitAsync(StartTimeout));
        var error = router.Error.Trim();
        output.WriteLine(error);
        Assert.Single(error.Split('\n'));
        Assert.Contains("unknown option '" + args[0].Split('=')[0] + "'", error);
        if (suggestion is null)
        {
            Assert.DoesNotContain("did you mean", error);
        }
        else
        {
            Assert.Contains($"did you mean '{suggestion}'?", error);
        }

        Assert.Empty(router.Output);
    }

    [Theory]
    [InlineData("max_memory", "1000", "max_outbound_buffer_size")] // a failed validation names both settings
    [InlineData("node_name", "bad/name", "node_name")]
    [InlineData("certificate_path", "/no/such/file.pfx", "certificate_path")]
    [InlineData("io_threads", "0", "from 1 to 1024")]
    [InlineData("inline_io", "maybe", "neither true nor false")]
    public async Task UnusableValue_ExitsWithUsageError_OneLineNamingTheSetting(string option, string value, string named)
    {
        await using var router = RouterProcess.Start("--port", "0", "--" + option, value, "--nats_url", "nats://127.0.0.1:1");
        Assert.Equal(UsageError, await router.WaitForExitAsync(StartTimeout));
        var error = router.Error.Trim();
        output.WriteLine(error + router.Output);
        Assert.Single(error.Split('\n'));
        Assert.Contains($"({option})", error);
        Assert.Contains(named, error);
        Assert.DoesNotContain("   at ", router.Output + router.Error); // no stack trace
        Assert.DoesNotContain("listening", router.Output);
    }

    [Fact]
    public async Task PortInUse_OneLineNamingTcpAndTheSwitch_NoStackTrace()
    {
        using var holder = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        holder.Start();
        var port = ((IPEndPoint)holder.LocalEndpoint).Port;
        await using var router = RouterProcess.Start("--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(1, await router.WaitForExitAsync(StartTimeout));
        var error = router.Error.Trim();
        output.WriteLine(router.Output + error);
        Assert.Single(error.Split('\n'));
        Assert.Contains($"tcp://127.0.0.1:{port} is already in use", error);
        Assert.Contains("--port", error);
        Assert.DoesNotContain("http://", error);
        Assert.DoesNotContain("   at ", router.Output + router.Error);
    }

    [Fact]
    public async Task NatsUnreachable_OneLineOnce_NotAStackTraceEverySecond()
    {
        // Port 1 on loopback: connection refused at once, so the NATS client tries again every 100 ms to 2 s.
        await using var router = RouterProcess.Start("--port", "0", "--nats_url", "nats://127.0.0.1:1", "--cluster_connect_timeout_ms", "1000", "--shutdown_timeout_ms", "200");
        try
        {
            await router.WaitForLineAsync(TcpLine(), StartTimeout);
            await Task.Delay(TimeSpan.FromSeconds(5)); // several attempts at the least
            router.Interrupt();
            Assert.Equal(0, await router.WaitForExitAsync(StartTimeout));
            var all = router.Output + router.Error;
            var failures = all.Split('\n').Count(l => l.Contains("Fail to connect", StringComparison.Ordinal));
            Assert.Equal(1, failures);
            Assert.Contains("Connection refused", all);
            Assert.DoesNotContain("   at ", all);
            Assert.Contains("could not reach NATS at nats://127.0.0.1:1", all);
        }
        finally
        {
            output.WriteLine(router.Output + router.Error);
        }
    }

    [Fact]
    public async Task HttpRequestOnTheTcpPort_GetsAnHttpAnswerPointingToTheHttpPort()
    {
        await using var router = RouterProcess.Start("--port", "0", "--http_port", "0", "--shutdown_timeout_ms", "200");
        try
        {
            var tcpPort = int.Parse((await router.WaitForLineAsync(TcpLine(), StartTimeout)).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            var httpPort = (await router.WaitForLineAsync(HttpLine(), StartTimeout)).Groups[2].Value;
            using var client = new HttpClient { Timeout = Bounded.Timeout };
            using var answer = await client.GetAsync(new Uri($"http://127.0.0.1:{tcpPort}/")).Within();
            Assert.Equal(HttpStatusCode.BadRequest, answer.StatusCode);
            var text = await answer.Content.ReadAsStringAsync();
            output.WriteLine(text);
            Assert.Contains("raw TCP port", text);
            Assert.Contains($"http://127.0.0.1:{httpPort}/rpc", text);

            // The router goes on serving JSON-RPC on that port.
            using var line = await LineClientFor(tcpPort);
            router.Interrupt();
            Assert.Equal(0, await router.WaitForExitAsync(StartTimeout));
            Assert.Contains("sent an HTTP request to the raw TCP port", router.Output);
            Assert.DoesNotContain("ClosedMidMessage", router.Output);
        }
        finally
        {
            output.WriteLine(router.Output + router.Error);
        }
    }

    private static async Task<System.Net.Sockets.TcpClient> LineClientFor(int port)
    {
        var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, port).Within();
        var stream = client.GetStream();
        await stream.WriteAsync("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"keepAlive\"}\n"u8.ToArray()).AsTask().Within();
        var buffer = new byte[256];
        var read = await stream.ReadAsync(buffer).AsTask().Within();
        Assert.Contains("\"result\":true", Encoding.UTF8.GetString(buffer, 0, read));
        return client;
    }

    [Theory]
    [InlineData("port", "abc")]
    [InlineData("http_port", "99999")]
    [InlineData("call_timeout_ms", "-5")]
    public async Task BadValue_ExitsNonZeroWithOneLineNamingIt(string option, string value)
    {
        await using var router = RouterProcess.Start("--port", "0", "--" + option, value);
        Assert.Equal(UsageError, await router.WaitForExitAsync(StartTimeout));
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
    public async Task Healthz_WhileTheRouterDrainsOnShutdown_Is503ThroughTheHealthCheck_ThenItExits()
    {
        await using var router = RouterProcess.Start("--port", "0", "--http_port", "0", "--shutdown_timeout_ms", "30000");
        try
        {
            var tcpPort = int.Parse((await router.WaitForLineAsync(TcpLine(), StartTimeout)).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            var healthz = new Uri($"http://127.0.0.1:{(await router.WaitForLineAsync(HttpLine(), StartTimeout)).Groups[2].Value}/healthz");

            // A call held by its provider keeps the router draining (up to the shutdown timeout) after the interrupt.
            var called = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var noReconnect = new JsonRpc.Client.JsonRpcClientOptions { Reconnect = { Enabled = false } };
            await using var provider = await JsonRpc.Client.JsonRpcClient.ConnectAsync("127.0.0.1", tcpPort, noReconnect).Within();
            provider.AddMethod("slow", async () =>
            {
                called.TrySetResult();
                await release.Task;
                return 42;
            });
            await provider.RegisterAsync("provider").Within();
            await using var caller = await JsonRpc.Client.JsonRpcClient.ConnectAsync("127.0.0.1", tcpPort, noReconnect).Within();
            var pending = caller.CallAsync<int>("slow").AsTask();
            await called.Task.Within();

            using var client = new HttpClient { Timeout = Bounded.Timeout };
            using (var serving = await client.GetAsync(healthz).Within())
            {
                Assert.Equal(HttpStatusCode.OK, serving.StatusCode);
            }

            router.Interrupt();
            await Eventually.TrueAsync(async () =>
            {
                using var draining = await client.GetAsync(healthz);
                return draining.StatusCode == HttpStatusCode.ServiceUnavailable
                    && (await draining.Content.ReadAsStringAsync()).Trim() == "Unhealthy: Shutting down";
            }, "/healthz answers 503 while the router drains");

            release.SetResult();
            Assert.Equal(42, await pending.Within());
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
