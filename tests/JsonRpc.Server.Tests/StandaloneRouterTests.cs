using System.Text.RegularExpressions;

namespace JsonRpc.Server.Tests;

/// <summary>The standalone router as a real process: start, serve, Ctrl+C, clean exit.</summary>
public sealed partial class StandaloneRouterTests(ITestOutputHelper output)
{
    // A separate, cold process on a machine that may be loaded: every step that waits for it gets a generous bound
    // (a passing run takes a few seconds; only a failure waits this long).
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(45);

    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    // SIGINT as Ctrl+C sends it (RouterProcess starts the router so that it hears SIGINT even where this test run
    // ignores it), SIGTERM as a service manager or `docker stop` sends it.
    [Theory]
    [InlineData(ChildProcess.SigInt)]
    [InlineData(ChildProcess.SigTerm)]
    public async Task Router_Process_ServesCallsAndShutsDownGracefullyOnSignal(int signal)
    {
        await using var router = RouterProcess.Start("--port", "0", "--shutdown_timeout_ms", "200", "--call_timeout_ms", "20000");
        var process = router.Process;
        try
        {
            var listening = await process.WaitForLineAsync(ListeningLine(), Bound);
            var routerPort = int.Parse(listening.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            await using var provider = await LineClient.ConnectAsync(routerPort);
            await provider.RegisterAsync("p");
            await provider.ProvideAsync("slow");
            await using var caller = await LineClient.ConnectAsync(routerPort);
            Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
            await caller.SendAsync(LineClient.Request("waiting", "slow"));
            await provider.ReadAsync(Bound);

            process.Signal(signal);
            var answer = await caller.ReadAsync(Bound);
            Answer.IsError(answer, RouterErrorCodes.ShuttingDown);
            Assert.Equal("waiting", answer.GetProperty("id").GetString());
            await caller.AssertClosedAsync(Bound);

            Assert.Equal(0, await process.WaitForExitAsync(Bound));
            Assert.Contains("Router shutting down", process.Output);
        }
        finally
        {
            output.WriteLine(process.Output);
        }
    }
}
