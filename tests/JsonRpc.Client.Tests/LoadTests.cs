using System.Buffers;
using System.Text;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;
using Xunit.Abstractions;

namespace JsonRpc.Client.Tests;

/// <summary>
/// The load tests: they use both cores for a few seconds, so they run alone, after the others, and cannot starve the
/// timing-sensitive tests (keep-alive, timeouts).
/// </summary>
[Collection(LoadCollection.Name)]
public sealed class LoadTests(ITestOutputHelper output)
{
    [Fact]
    public async Task CallAsync_PlainServerManyThreadsManyCalls_EveryAnswerMatchesItsCall()
    {
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();

        // 40,000 calls: several megabytes each way, well past the send buffer's high-water mark.
        const int threads = 8;
        const int callsPerThread = 5_000;
        var ctx = TestJsonContext.Default;
        var workers = Enumerable.Range(0, threads).Select(t => Task.Run(async () =>
        {
            var pending = new List<Task<int>>(callsPerThread);
            for (var i = 0; i < callsPerThread; i++)
            {
                pending.Add(client.CallAsync("add", new AddParams(t, i), ctx.AddParams, ctx.Int32).AsTask());
            }

            var results = await Task.WhenAll(pending);
            for (var i = 0; i < callsPerThread; i++)
            {
                Assert.Equal(t + i, results[i]);
            }
        }));

        // 40,000 calls on 2 cores that other test assemblies and builds may share: a bound for a stuck call, not a speed test.
        await Task.WhenAll(workers).WaitAsync(TimeSpan.FromSeconds(90));
        Assert.Equal(0, client.DroppedAnswers);
    }

    [Fact]
    public async Task CallAsync_RouterTenThreadsTimesTenThousandConcurrentCalls_EveryAnswerCorrect()
    {
        const int threads = 10;
        const int callsPerThread = 10_000;
        await using var router = await RouterHost.StartAsync(o =>
        {
            o.MaxPendingCallsPerConnection = threads * callsPerThread;
            o.CallTimeout = TimeSpan.FromSeconds(60);
        });
        var options = new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(60), MaxConcurrentIncomingCalls = threads * callsPerThread };
        await using var provider = await router.ConnectAsync(options);
        provider.AddMethod("add", "a", "b", (int a, int b) => a + b, TestJsonContext.Default.Int32, TestJsonContext.Default.Int32, TestJsonContext.Default.Int32);
        await provider.RegisterAsync("calc").Within();
        await using var caller = await router.ConnectAsync(options);

        var started = DateTime.UtcNow;
        var workers = Enumerable.Range(0, threads).Select(t => Task.Run(async () =>
        {
            var pending = new Task<int>[callsPerThread];
            for (var i = 0; i < callsPerThread; i++)
            {
                pending[i] = caller.CallAsync("add", new AddParams(t * callsPerThread, i), TestJsonContext.Default.AddParams, TestJsonContext.Default.Int32).AsTask();
            }

            var results = await Task.WhenAll(pending);
            var wrong = 0;
            for (var i = 0; i < callsPerThread; i++)
            {
                wrong += results[i] == (t * callsPerThread) + i ? 0 : 1;
            }

            return wrong;
        })).ToArray();

        var wrongAnswers = await Task.WhenAll(workers).WaitAsync(TimeSpan.FromSeconds(90));
        Assert.All(wrongAnswers, w => Assert.Equal(0, w));
        Assert.Equal(0, caller.DroppedAnswers);
        output.WriteLine($"100,000 routed calls in {(DateTime.UtcNow - started).TotalSeconds:F1} s");
    }

    [Fact]
    public async Task CallAsync_BufferWriter_LargeResultsAllocateNoCopyOfTheirOwn()
    {
        // The RawJson overload gives each 100 KB result an array of its own; the writer overload must not. Counted for the
        // whole process (so here, alone), the same calls both ways in turn, so that what everything else allocates (the
        // test server in this process too) cancels out.
        await using var server = new TestServer().Install();
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", server.Port).Within();
        const int Rounds = 3;
        const int Calls = 10;
        var @params = RawJson.Parse("[\"" + new string('z', 100_000) + "\"]");
        var writer = new ArrayBufferWriter<byte>(128 * 1024);
        for (var i = 0; i < 3; i++)
        {
            _ = await client.CallAsync("echo", @params).Within();
            writer.ResetWrittenCount();
            _ = await client.CallAsync("echo", @params, writer).Within();
        }

        long owned = 0, appended = 0;
        for (var round = 0; round < Rounds; round++)
        {
            var before = GC.GetTotalAllocatedBytes(precise: true);
            for (var i = 0; i < Calls; i++)
            {
                _ = await client.CallAsync("echo", @params).Within();
            }

            owned += GC.GetTotalAllocatedBytes(precise: true) - before;
            before = GC.GetTotalAllocatedBytes(precise: true);
            for (var i = 0; i < Calls; i++)
            {
                writer.ResetWrittenCount();
                _ = await client.CallAsync("echo", @params, writer).Within();
            }

            appended += GC.GetTotalAllocatedBytes(precise: true) - before;
        }

        Assert.True(owned - appended >= Rounds * Calls * 75_000L, $"owned results {owned:N0} B, appended {appended:N0} B for {Rounds * Calls} calls of 100 KB each way");
        Assert.Equal(@params.ToString(), Encoding.UTF8.GetString(writer.WrittenSpan));
    }
}
