using System.Text.RegularExpressions;
using JsonRpc.Server.Tests.Infrastructure;

namespace JsonRpc.Server.Tests;

/// <summary>The standalone router as a real process: start, serve, Ctrl+C, clean exit.</summary>
public sealed partial class StandaloneRouterTests(ITestOutputHelper output)
{
    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    [Fact]
    public async Task Router_Process_ServesCallsAndShutsDownGracefullyOnSigint()
    {
        var dll = RepositoryLayout.BuiltFile(Path.Combine("src", "JsonRpc.Router"), "JsonRpc.Router.dll");
        await using var process = ChildProcess.StartDotnet(dll, ["--port", "0", "--shutdown_timeout_ms", "200", "--call_timeout_ms", "20000"]);
        try
        {
            var listening = await process.WaitForLineAsync(ListeningLine(), TimeSpan.FromSeconds(30));
            var routerPort = int.Parse(listening.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            await using var provider = await LineClient.ConnectAsync(routerPort);
            await provider.RegisterAsync("p");
            await provider.ProvideAsync("slow");
            await using var caller = await LineClient.ConnectAsync(routerPort);
            Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
            await caller.SendAsync(LineClient.Request("waiting", "slow"));
            await provider.ReadAsync();

            process.Signal(ChildProcess.SigInt); // as Ctrl+C
            var answer = await caller.ReadAsync(TimeSpan.FromSeconds(10));
            Answer.IsError(answer, RouterErrorCodes.ShuttingDown);
            Assert.Equal("waiting", answer.GetProperty("id").GetString());
            await caller.AssertClosedAsync(TimeSpan.FromSeconds(10));

            Assert.Equal(0, await process.WaitForExitAsync(TimeSpan.FromSeconds(20)));
            Assert.Contains("Router shutting down", process.Output);
        }
        finally
        {
            output.WriteLine(process.Output);
        }
    }
}
