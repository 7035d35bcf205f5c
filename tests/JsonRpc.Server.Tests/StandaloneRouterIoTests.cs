using System.Globalization;
using JsonRpc.Server.Tests.Infrastructure;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The standalone router's socket threads (<c>--io_threads</c>) and inline handling (<c>--inline_io</c>), seen from
/// outside: the threads the process runs and the CPU each kind of thread spent routing real calls (Linux's /proc).
/// </summary>
public sealed class StandaloneRouterIoTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(45);

    [Theory]
    [InlineData("1")]
    [InlineData("3")]
    public async Task IoThreads_IsHowManySocketThreadsTheRouterRuns(string threads)
    {
        await using var router = await RouterProcess.StartListeningAsync(["--io_threads", threads], Bound);
        try
        {
            await RouteCallsAsync(router.Port, 50);
            Assert.Equal(int.Parse(threads, CultureInfo.InvariantCulture), ProcessThreads.Read(router.Process.Id).Count(t => t.Name == ProcessThreads.SocketThread));
        }
        finally
        {
            output.WriteLine(router.Log);
        }
    }

    [Theory]
    [InlineData(true, new[] { "--inline_io", "true", "--io_threads", "1" })]
    [InlineData(false, new[] { "--inline_io", "false", "--io_threads", "1" })]
    [InlineData(false, new string[0])] // the default: the router is shared, so no client's messages hold up another's thread
    public async Task InlineIo_RoutesOnTheSocketThread_OtherwiseOnThePool(bool inline, string[] args)
    {
        // 20,000 routed calls cost the router half a CPU-second or more, enough for the kernel's per-thread tick counts
        // (10 ms each) to tell where they ran: inline, on the one socket thread; otherwise the socket thread only hands
        // each message to the pool, and the pool's workers receive, route and send it.
        await using var router = await RouterProcess.StartListeningAsync(args, Bound);
        try
        {
            var before = ProcessThreads.Read(router.Process.Id);
            await RouteCallsAsync(router.Port, 20_000);
            var after = ProcessThreads.Read(router.Process.Id);
            var socket = ProcessThreads.Spent(before, after, ProcessThreads.SocketThread);
            var pool = ProcessThreads.Spent(before, after, ProcessThreads.PoolThread);
            output.WriteLine($"CPU ticks while routing: socket thread {socket}, pool workers {pool}");
            if (inline)
            {
                Assert.True(socket > pool, $"inline: the socket thread spent {socket} ticks, the pool {pool}");
            }
            else
            {
                Assert.True(pool > socket, $"not inline: the socket thread spent {socket} ticks, the pool {pool}");
            }
        }
        finally
        {
            output.WriteLine(router.Log);
        }
    }

    [Fact]
    public async Task InlineIo_OneWriteOfCallsToSeveralProviders_EachGetsItsCallsInOrder()
    {
        // Inline, the writers a read wakes run on the socket thread once the read is handled (the router holds their
        // wake-ups until then, and wakes one early when 256 KiB wait for it): the same checks as the in-process router's.
        await using var router = await RouterProcess.StartListeningAsync(["--inline_io", "true"], Bound);
        try
        {
            await RoutingTests.OneWriteOfCallsToSeveralProvidersAsync(router.Port);
        }
        finally
        {
            output.WriteLine(router.Log);
        }
    }

    // A provider and a caller over the router's TCP port, calls one after another, each answer checked.
    private static async Task RouteCallsAsync(int port, int calls)
    {
        await using var provider = await LineClient.ConnectAsync(port);
        await provider.RegisterAsync("p");
        await provider.ProvideAsync("echo");
        await using var caller = await LineClient.ConnectAsync(port);
        var serving = Task.Run(async () =>
        {
            for (var i = 0; i < calls; i++)
            {
                var request = await provider.ReadAsync();
                await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{request.GetProperty("id").GetRawText()}},"result":{{request.GetProperty("params").GetProperty("n").GetInt32()}}}""");
            }
        });
        for (var i = 0; i < calls; i++)
        {
            await caller.SendAsync(LineClient.Request(i, "echo", $$"""{"n":{{i}}}"""));
            var answer = await caller.ReadAsync();
            Assert.Equal(i, answer.GetProperty("id").GetInt32());
            Assert.Equal(i, answer.GetProperty("result").GetInt32());
        }

        await serving.WaitAsync(Bound);
    }
}
