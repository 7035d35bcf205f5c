using System.Buffers;
using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace JsonRpc.Server.Tests;

public sealed class HostingTests(ITestOutputHelper output)
{
    [Fact]
    public void Configuration_DotNetAndSnakeCaseNames_AreBound()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["JsonRpcRouter:Port"] = "9001",
                ["JsonRpcRouter:CallTimeout"] = "00:00:02",
                ["JsonRpcRouter:RequireRegistration"] = "true",
                ["JsonRpcRouter:MaxConnections"] = "7",
            })
            .AddCommandLine(["--port", "9000", "--keepalive_timeout_ms", "1500", "--access_token", "t", "--max_message_size", "2048", "--max_pending_calls", "3", "--max_routes", "5"],
                JsonRpcRouterConfiguration.CommandLineSwitchMappings.ToDictionary())
            .Build();
        var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration).AddLogging().AddJsonRpcRouter().BuildServiceProvider();
        var options = services.GetRequiredService<IOptions<JsonRpcRouterOptions>>().Value;

        Assert.Equal(9000, options.Port);
        Assert.Equal(TimeSpan.FromMilliseconds(1500), options.KeepAliveTimeout);
        Assert.Equal(TimeSpan.FromSeconds(2), options.CallTimeout);
        Assert.True(options.RequireRegistration);
        Assert.Equal("t", options.AccessToken);
        Assert.Equal(2048, options.MaxMessageSize);
        Assert.Equal(7, options.MaxConnections);
        Assert.Equal(3, options.MaxPendingCallsPerConnection);
        Assert.Equal(5, options.MaxRoutesPerConnection);
        Assert.Equal("127.0.0.1", options.Host);
    }

    [Fact]
    public void Configuration_BadValue_NamesTheKey()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["JsonRpcRouter:call_timeout_ms"] = "soon" })
            .Build();
        var options = new JsonRpcRouterOptions();
        var error = Assert.Throws<InvalidOperationException>(() => JsonRpcRouterConfiguration.Bind(configuration.GetSection("JsonRpcRouter"), options));
        Assert.Contains("JsonRpcRouter:call_timeout_ms", error.Message);
    }

    [Fact]
    public void Options_Invalid_AreRefusedWithTheSettingsNamed()
    {
        var error = Assert.Throws<OptionsValidationException>(() => new JsonRpcRouter(Options.Create(new JsonRpcRouterOptions
        {
            Port = 70000,
            MaxMessageSize = 10,
            MaxConnections = 0,
            MaxRoutesPerConnection = 0,
        })));
        Assert.Contains("Port", error.Message);
        Assert.Contains("MaxMessageSize", error.Message);
        Assert.Contains("MaxConnections", error.Message);
        Assert.Contains("MaxRoutesPerConnection", error.Message);
    }

    [Fact]
    public async Task UseJsonRpcRouter_BesideHttpEndpoints_BothWork_RouterSaysWhichIsRawTcp()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        var logs = new JsonRpc.Testing.CapturingLoggerProvider();
        builder.Logging.AddProvider(logs);
        builder.Services.AddJsonRpcRouter();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, 0); // HTTP
            kestrel.Listen(IPAddress.Loopback, 0, listen => listen.UseJsonRpcRouter());
        });
        await using var app = builder.Build();
        app.MapGet("/health", () => "ok");
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
        try
        {
            var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Select(a => new Uri(a).Port).ToArray();
            Assert.Equal(2, addresses.Length);
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) }; // the first request JITs Kestrel's HTTP path
            Assert.Equal("ok", await http.GetStringAsync($"http://127.0.0.1:{addresses[0]}/health"));
            await using var client = await LineClient.ConnectAsync(addresses[1]);
            Answer.IsResult(await client.CallAsync("keepAlive"), "true");

            // Kestrel lists both as http://; the router says which one is its raw TCP endpoint, and only that one.
            var lines = logs.Messages.Where(m => m.Contains("JSON-RPC router listening on", StringComparison.Ordinal)).ToArray();
            Assert.StartsWith($"JSON-RPC router listening on 127.0.0.1:{addresses[1]} (raw TCP JSON-RPC", Assert.Single(lines), StringComparison.Ordinal);
        }
        finally
        {
            await app.StopAsync().WaitAsync(TimeSpan.FromSeconds(10));
        }
    }

    [Fact]
    public async Task Tls_CertificateOption_ServesTheRouterOverTls()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var generated = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        var path = Path.Combine(Path.GetTempPath(), $"router-{Guid.NewGuid():N}.pfx");
        await File.WriteAllBytesAsync(path, generated.Export(X509ContentType.Pfx, "pw"));
        try
        {
            var builder = WebApplication.CreateSlimBuilder();
            builder.Logging.ClearProviders();
            builder.Services.AddJsonRpcRouter(o =>
            {
                o.Port = 0;
                o.CertificatePath = path;
                o.CertificatePassword = "pw";
            });
            builder.WebHost.ConfigureKestrel(kestrel => kestrel.ListenJsonRpcRouter());
            await using var app = builder.Build();
            await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
            var port = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single()).Port;

            using var tcp = new System.Net.Sockets.TcpClient();
            await tcp.ConnectAsync(IPAddress.Loopback, port).WaitAsync(TimeSpan.FromSeconds(5));
            await using var tls = new SslStream(tcp.GetStream(), false, (_, certificate, _, _) => certificate?.GetCertHashString() == generated.GetCertHashString());
            await tls.AuthenticateAsClientAsync("localhost").WaitAsync(TimeSpan.FromSeconds(5));
            await tls.WriteAsync(Encoding.UTF8.GetBytes(LineClient.Request(1, "keepAlive") + "\n"));
            using var reader = new StreamReader(tls);
            Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":true}""", await reader.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(5)));
            await app.StopAsync().WaitAsync(TimeSpan.FromSeconds(10));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task Shutdown_PendingCallsAreFailedAndConnectionsClosed()
    {
        var server = await RouterServer.StartAsync(o => o.ShutdownTimeout = TimeSpan.FromMilliseconds(300), output);
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller = await server.ConnectAsync();
        await caller.SendAsync(LineClient.Request("pending", "slow"));
        await provider.ReadAsync();

        var stopping = server.DisposeAsync().AsTask();
        var answer = await caller.ReadAsync(TimeSpan.FromSeconds(5));
        Answer.IsError(answer, RouterErrorCodes.ShuttingDown);
        Assert.Equal("pending", answer.GetProperty("id").GetString());
        await caller.AssertClosedAsync();
        await provider.AssertClosedAsync();
        await stopping.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task Shutdown_CallAnsweredWithinGrace_IsDelivered()
    {
        var server = await RouterServer.StartAsync(o => o.ShutdownTimeout = TimeSpan.FromSeconds(5));
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller = await server.ConnectAsync();
        await caller.SendAsync(LineClient.Request(1, "slow"));
        var request = await provider.ReadAsync();

        var stopping = server.DisposeAsync().AsTask();
        await Eventually.TrueAsync(() => server.Router.IsShuttingDown, "the router is shutting down");
        Answer.IsError(await caller.CallAsync("slow"), RouterErrorCodes.ShuttingDown); // new calls are refused
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":"made it"}""");
        Answer.IsResult(await caller.ReadAsync(), "\"made it\"");
        await caller.AssertClosedAsync();
        await stopping.WaitAsync(TimeSpan.FromSeconds(15));
    }

    [Fact]
    public async Task RunConnectionAsync_OverInMemoryPipes_Routes()
    {
        await using var router = new JsonRpcRouter(Options.Create(new JsonRpcRouterOptions()));
        var (clientA, serverA) = PipePair();
        var (clientB, serverB) = PipePair();
        var runA = router.RunConnectionAsync(serverA);
        var runB = router.RunConnectionAsync(serverB);

        await Write(clientA, """{"jsonrpc":"2.0","id":1,"method":"register_client","params":["a"]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":true}""", await ReadLine(clientA));
        await Write(clientA, """{"jsonrpc":"2.0","id":2,"method":"register_method","params":["m"]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":2,"result":true}""", await ReadLine(clientA));
        await Write(clientB, """{"jsonrpc":"2.0","id":"b","method":"m"}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"method":"m"}""", await ReadLine(clientA));
        await Write(clientA, """{"jsonrpc":"2.0","id":1,"result":[]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"b","result":[]}""", await ReadLine(clientB));

        await clientA.Output.CompleteAsync();
        await clientB.Output.CompleteAsync();
        await Task.WhenAll(runA, runB).WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Equal(0, router.GetStats().Connections);

        static (System.IO.Pipelines.IDuplexPipe Client, System.IO.Pipelines.IDuplexPipe Server) PipePair()
        {
            var toServer = new System.IO.Pipelines.Pipe();
            var toClient = new System.IO.Pipelines.Pipe();
            return (new Duplex(toClient.Reader, toServer.Writer), new Duplex(toServer.Reader, toClient.Writer));
        }

        static async Task Write(System.IO.Pipelines.IDuplexPipe pipe, string line)
            => await pipe.Output.WriteAsync(Encoding.UTF8.GetBytes(line + "\n"));

        static async Task<string> ReadLine(System.IO.Pipelines.IDuplexPipe pipe)
        {
            while (true)
            {
                var result = await pipe.Input.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(5));
                var position = result.Buffer.PositionOf((byte)'\n');
                if (position is { } end)
                {
                    var line = Encoding.UTF8.GetString(result.Buffer.Slice(0, end));
                    pipe.Input.AdvanceTo(result.Buffer.GetPosition(1, end));
                    return line;
                }

                pipe.Input.AdvanceTo(result.Buffer.Start, result.Buffer.End);
            }
        }
    }

    internal sealed class Duplex(System.IO.Pipelines.PipeReader input, System.IO.Pipelines.PipeWriter output) : System.IO.Pipelines.IDuplexPipe
    {
        public System.IO.Pipelines.PipeReader Input { get; } = input;

        public System.IO.Pipelines.PipeWriter Output { get; } = output;
    }
}
