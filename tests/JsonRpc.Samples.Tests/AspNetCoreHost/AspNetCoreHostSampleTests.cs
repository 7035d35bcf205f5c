using System.Net.Http.Json;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using AspNetCoreHost;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Samples.Tests.AspNetCoreHost;

public class AspNetCoreHostSampleTests
{
    [Fact]
    public async Task Host_ServesHttpEndpointsAndRouterSideBySide()
    {
        await using var app = HostApp.Build([], httpPort: 0, routerPort: 0);
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
        var ports = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses
            .Select(address => new Uri(address).Port).ToArray();
        Assert.Equal(2, ports.Length);
        var (httpPort, routerPort) = (ports[0], ports[1]);

        // JSON-RPC on the router endpoint: the host's own method.
        using var tcp = new TcpClient();
        await tcp.ConnectAsync("127.0.0.1", routerPort).WaitAsync(TimeSpan.FromSeconds(10));
        var stream = tcp.GetStream();
        await stream.WriteAsync("""{"jsonrpc":"2.0","method":"time","id":1}"""u8.ToArray().Concat("\n"u8.ToArray()).ToArray());
        using var reader = new StreamReader(stream, Encoding.UTF8);
        var line = await reader.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(10));
        using (var answer = JsonDocument.Parse(line!))
        {
            var time = answer.RootElement.GetProperty("result").GetDateTimeOffset();
            Assert.InRange(time, DateTimeOffset.UtcNow.AddMinutes(-1), DateTimeOffset.UtcNow.AddMinutes(1));
        }

        // The IGreeter contract, served from DI (AddJsonRpcTarget), by its wire name.
        await stream.WriteAsync("""{"jsonrpc":"2.0","method":"greet","params":["Ada"],"id":2}"""u8.ToArray().Concat("\n"u8.ToArray()).ToArray());
        line = await reader.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(10));
        using (var answer = JsonDocument.Parse(line!))
        {
            Assert.Equal("Hello, Ada!", answer.RootElement.GetProperty("result").GetString());
        }

        // HTTP beside it: the health checks (the router's), and the stats reporting the connection just made.
        using var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{httpPort}"), Timeout = TimeSpan.FromSeconds(10) };
        Assert.Equal("Healthy", await http.GetStringAsync("/healthz"));

        using var stats = await http.GetFromJsonAsync<JsonDocument>("/stats");
        Assert.Equal(2, stats!.RootElement.GetProperty("serverCalls").GetInt64());
        Assert.Equal(1, stats.RootElement.GetProperty("connections").GetInt64());

        await app.StopAsync().WaitAsync(TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task Host_ServesRouterOverHttpAndDashboard()
    {
        await using var app = HostApp.Build([], httpPort: 0, routerPort: 0);
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(10));
        var httpPort = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()).Port;
        using var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{httpPort}"), Timeout = TimeSpan.FromSeconds(10) };

        // The host's method over HTTP POST.
        using var post = await http.PostAsync("/rpc", new StringContent("""{"jsonrpc":"2.0","method":"time","id":1}""", Encoding.UTF8, "application/json"));
        using (var answer = JsonDocument.Parse(await post.Content.ReadAsStringAsync()))
        {
            Assert.Equal(JsonValueKind.String, answer.RootElement.GetProperty("result").ValueKind);
        }

        // The dashboard, with its script and style sheet found from /dashboard (no trailing slash).
        var page = await http.GetStringAsync("/dashboard");
        Assert.Contains("content=\"/rpc\"", page);
        Assert.Contains("src=\"/dashboard/dashboard.js\"", page);
        Assert.Contains("list_methods", await http.GetStringAsync("/dashboard/dashboard.js"));
        Assert.Contains("--calls", await http.GetStringAsync("/dashboard/dashboard.css"));

        await app.StopAsync().WaitAsync(TimeSpan.FromSeconds(10));
    }
}
