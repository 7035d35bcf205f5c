using System.Globalization;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The standalone router's socket threads (<c>--io_threads</c>) and inline handling (<c>--inline_io</c>), seen from
/// outside: the threads the process runs and the CPU each kind of thread spent routing real calls (Linux's /proc).
/// </summary>
public sealed class StandaloneRouterIoTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(45);

    // .NET names the threads that wait on epoll for sockets so (and its thread-pool workers ".NET TP Worker").
    private const string SocketThread = ".NET Sockets";
    private const string PoolThread = ".NET TP Worker";

    [Theory]
    [InlineData("1")]
    [InlineData("3")]
    public async Task IoThreads_IsHowManySocketThreadsTheRouterRuns(string threads)
    {
        await using var router = await RouterProcess.StartListeningAsync(["--io_threads", threads], Bound);
        try
        {
            await RouteCallsAsync(router.Port, 50);
            Assert.Equal(int.Parse(threads, CultureInfo.InvariantCulture), Threads(router.Process.Id).Count(t => t.Name == SocketThread));
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
            var before = Threads(router.Process.Id);
            await RouteCallsAsync(router.Port, 20_000);
            var after = Threads(router.Process.Id);
            long Spent(string name) => after.Where(t => t.Name == name).Sum(t => t.Ticks - (before.FirstOrDefault(b => b.Id == t.Id)?.Ticks ?? 0));
            var socket = Spent(SocketThread);
            var pool = Spent(PoolThread);
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

    private sealed record ThreadTicks(int Id, string Name, long Ticks);

    // Each thread's name and CPU time (user + system ticks) from /proc/PID/task/TID/{comm,stat}.
    private static List<ThreadTicks> Threads(int pid)
    {
        var threads = new List<ThreadTicks>();
        foreach (var task in Directory.EnumerateDirectories($"/proc/{pid}/task"))
        {
            try
            {
                var name = File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n');
                var stat = File.ReadAllText(Path.Combine(task, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' '); // after "pid (comm) ": state is field 3
                var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture); // utime, stime
                threads.Add(new ThreadTicks(int.Parse(Path.GetFileName(task), CultureInfo.InvariantCulture), name, ticks));
            }
            catch (IOException)
            {
                // the thread ended while we looked
            }
        }

        return threads;
    }
}
