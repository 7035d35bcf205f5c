using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using JsonRpc.Testing;

namespace JsonRpc.Server.Tests;

/// <summary>
/// What the router holds for clients is bounded per connection (outbound queue and waiting batch replies together) and
/// in total (the memory budget), with clear errors past either, and a caller that reads everything is never dropped.
/// </summary>
public sealed class MemoryBoundTests(ITestOutputHelper output)
{
    private const int Bound = 64 * 1024; // the test client reads lines of up to 64 KB
    private static readonly string Blob = new('b', 4 * 1024);

    private static void AddBlob(JsonRpcRouter router) => router.AddMethod("blob", () => Blob);

    // A batch whose replies wait for one call its provider never answers: [slow, blob x count].
    private static string HeldBatch(int batch, int count)
        => "[" + string.Join(',', new[] { LineClient.Request($"s{batch}", "slow") }
            .Concat(Enumerable.Range(0, count).Select(i => LineClient.Request($"b{batch}-{i}", "blob")))) + "]";

    [Fact]
    public async Task Batches_HeldOpenByUnansweredCalls_ShareTheConnectionBound_ReadingPauses_AndTheReaderIsNotDropped()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 32 * 1024;
            o.MaxOutboundBufferSize = Bound;
            o.CallTimeout = TimeSpan.FromSeconds(2);
        }, output, AddBlob);
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        await using var caller = await server.ConnectAsync();

        // Four batches of ~33 KB of replies each, held open by a call its provider never answers: 132 KB if each were
        // bounded on its own. The router reads the first, then stops reading (more than half the bound is held for this
        // client) until its slow call times out and the batch is answered; so the next, and so on.
        for (var i = 0; i < 4; i++)
        {
            await caller.SendAsync(HeldBatch(i, 8));
        }

        var peak = 0L;
        for (var i = 0; i < 4; i++)
        {
            var reply = await caller.ReadAsync();
            peak = Math.Max(peak, server.Router.Memory.Held);
            Assert.Equal(JsonValueKind.Array, reply.ValueKind);
            Assert.Equal(9, reply.GetArrayLength());
        }

        Assert.True(server.Router.GetStats().ReadPauses >= 1, "the router never paused reading the batches");
        Assert.InRange(peak, 0, Bound + (8 * 1024));

        // A batch whose replies alone are past the bound is refused with one error, and the caller stays connected.
        await caller.SendAsync(HeldBatch(9, 20));
        Answer.IsError(await caller.ReadAsync(), RouterErrorCodes.MessageTooLarge);
        Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
        await Eventually.TrueAsync(() => server.Router.Memory.Held == 0, "everything held was released");
    }

    [Fact]
    public async Task MessagesStillArriving_CountAgainstTheMemoryBudget_UntilTheirConnectionsEnd()
    {
        // Three clients each send most of a 1 MiB message and nothing more: 2.4 MiB the transport holds for them, past
        // 90% of a 2.5 MiB budget, so a new call elsewhere is refused; once they are gone it is served.
        const int Mib = 1024 * 1024;
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = Mib;
            o.MaxOutboundBufferSize = Mib;
            o.MaxMemory = 5 * Mib / 2;
        }, output, AddBlob);
        await using var other = await server.ConnectAsync();
        var partial = Encoding.UTF8.GetBytes(LineClient.Request(1, "blob", $"[\"{new string('p', 800 * 1024)}"));
        var senders = new List<LineClient>();
        try
        {
            for (var i = 0; i < 3; i++)
            {
                var sender = await server.ConnectAsync();
                senders.Add(sender);
                await sender.SendRawAsync(partial);
            }

            await Eventually.TrueAsync(() => server.Router.Memory.Held >= 3 * partial.Length, "the partial messages are charged");
            Answer.IsError(await other.CallAsync("blob"), RouterErrorCodes.Overloaded);
        }
        finally
        {
            foreach (var sender in senders)
            {
                await sender.DisposeAsync();
            }
        }

        await Eventually.TrueAsync(() => server.Router.Memory.Held == 0, "the charge went with the connections");
        Assert.Equal(Blob, (await other.CallAsync("blob")).GetProperty("result").GetString());
    }

    [Fact]
    public async Task Router_NearItsMemoryBudget_RefusesNewCallsWithOverloaded_AndRecoversWhenReleased()
    {
        using var log = new CapturingLoggerProvider();
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 32 * 1024;
            o.MaxOutboundBufferSize = Bound;
            o.MaxMemory = 2 * Bound;
            o.CallTimeout = TimeSpan.FromSeconds(2);
        }, output, AddBlob, b => b.Logging.AddProvider(log));
        await using var provider = await server.ConnectRegisteredAsync("p", "slow");
        var holders = new List<LineClient>();
        try
        {
            // Three clients, each within its own bound (~57 KB), together past 90% of the 128 KB budget.
            for (var i = 0; i < 3; i++)
            {
                var holder = await server.ConnectAsync();
                holders.Add(holder);
                await holder.SendAsync(HeldBatch(i, 14));
            }

            await Eventually.TrueAsync(() => server.Router.Memory.IsNearLimit, "the budget is nearly spent");
            Assert.Equal(HealthStatus.Degraded, await HealthAsync(server.Router)); // AddHealthChecks().AddJsonRpcRouter()
            await using var other = await server.ConnectAsync();
            var refused = await other.CallAsync("blob");
            Answer.IsError(refused, RouterErrorCodes.Overloaded);
            Assert.True((await other.StatsAsync()).GetProperty("memory_refusals").GetInt64() >= 1);
            Assert.Contains(log.Messages, m => m.Contains("Memory budget nearly spent", StringComparison.Ordinal)
                && m.Contains($"of {2 * Bound} bytes held", StringComparison.Ordinal) && m.Contains("-32018", StringComparison.Ordinal));

            // Once the held batches are answered and read, calls are taken again.
            foreach (var holder in holders)
            {
                await holder.ReadAsync();
            }

            await Eventually.TrueAsync(() => !server.Router.Memory.IsNearLimit, "the budget drained");
            Assert.Equal(HealthStatus.Healthy, await HealthAsync(server.Router));
            Assert.Equal(Blob, (await other.CallAsync("blob")).GetProperty("result").GetString());
        }
        finally
        {
            foreach (var holder in holders)
            {
                await holder.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task SmallReplies_ToAClientThatDoesNotRead_EachHoldABufferOfItsOwnSize()
    {
        // The router's writer is stuck on its first flush (nobody reads the output pipe), so the keepAlive answers wait
        // in the queue, counted as the buffers they hold: each about 40 bytes, in a buffer of 64, not in the 256-byte
        // (or larger) working buffer of the writer that wrote it.
        await using var router = new JsonRpcRouter(Options.Create(new JsonRpcRouterOptions()));
        var input = new Pipe();
        var output = new Pipe(new PipeOptions(pauseWriterThreshold: 1, resumeWriterThreshold: 1));
        var running = router.RunConnectionAsync(new HostingTests.Duplex(input.Reader, output.Writer));
        var request = Encoding.UTF8.GetBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"keepAlive\"}\n");

        // The first answer is written and its flush waits for a reader that never comes: the writer is stuck there.
        await input.Writer.WriteAsync(request);
        await Eventually.TrueAsync(() => router.GetStats().MessagesOut == 1, "the first answer was written");
        for (var i = 0; i < 199; i++)
        {
            await input.Writer.WriteAsync(request);
        }

        await Eventually.TrueAsync(() => router.GetStats().MessagesIn == 200 && router.Memory.Held >= 199 * 40, "every call was read and answered");
        Assert.InRange(router.Memory.Held, 199 * 40, 199 * 128);

        await input.Writer.CompleteAsync();
        await output.Reader.CompleteAsync();
        await running.WaitAsync(TimeSpan.FromSeconds(15));
        Assert.Equal(0, router.Memory.Held);
    }

    private static async Task<HealthStatus> HealthAsync(JsonRpcRouter router)
    {
        var check = new JsonRpc.Server.Hosting.JsonRpcRouterHealthCheck(router);
        var context = new HealthCheckContext { Registration = new HealthCheckRegistration("jsonrpc-router", check, null, null) };
        return (await check.CheckHealthAsync(context)).Status;
    }
}
