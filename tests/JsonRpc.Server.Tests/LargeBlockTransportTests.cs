using JsonRpc.Server.Transport;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The router's large socket buffers (<c>AddJsonRpcRouterLargeBlocks</c>): the pool itself, and real Kestrel
/// connections reading and writing through it.
/// </summary>
public sealed class LargeBlockTransportTests(ITestOutputHelper output)
{
    [Fact]
    public void Pool_RentsWholeBlocks_ReusesReturnedOnes_KeepsAtMostItsBound()
    {
        using var pool = new LargeBlockMemoryPool(64 * 1024, retained: 2);
        Assert.Equal(64 * 1024, pool.MaxBufferSize);
        var first = pool.Rent(4096);
        Assert.Equal(64 * 1024, first.Memory.Length);
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(64 * 1024 + 1));

        first.Memory.Span[0] = 42;
        first.Dispose();
        first.Dispose(); // twice: still one block kept, not two
        Assert.Equal(1, pool.Retained);
        var again = pool.Rent();
        Assert.Same(first, again);
        Assert.Equal(0, pool.Retained);

        var blocks = Enumerable.Range(0, 4).Select(_ => pool.Rent()).Append(again).ToList();
        Assert.Equal(5, blocks.Distinct().Count());
        foreach (var block in blocks)
        {
            block.Dispose();
        }

        Assert.Equal(2, pool.Retained); // the rest went to the GC
    }

    [Fact]
    public async Task Router_LargeMessagesBothWays_ArriveWhole_ThroughTheLargeBlocks()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxMessageSize = 4 * 1024 * 1024, output);
        var factory = Assert.IsType<LargeBlockMemoryPoolFactory>(server.Services.GetRequiredService<IMemoryPoolFactory<byte>>());
        await using var provider = await server.ConnectRegisteredAsync("provider", "echo");
        await using var caller = await server.ConnectAsync();

        // Sizes around and across the 128 KiB block: a message in one block, just past one, and over many.
        foreach (var size in new[] { 100 * 1024, 128 * 1024 - 40, 128 * 1024 + 1, 1_000_000 })
        {
            var payload = string.Create(size, size, (span, seed) =>
            {
                for (var i = 0; i < span.Length; i++)
                {
                    span[i] = (char)('a' + ((i * 7 + seed) % 26));
                }
            });
            await caller.SendAsync(LineClient.Request(size, "echo", $"[\"{payload}\"]"));
            var call = await provider.ReadAsync();
            Assert.Equal(payload, call.GetProperty("params")[0].GetString());
            await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{call.GetProperty("id").GetRawText()}},"result":"{{payload}}"}""");
            var answer = await caller.ReadAsync();
            Assert.Equal(size, answer.GetProperty("id").GetInt32());
            Assert.Equal(payload, answer.GetProperty("result").GetString());
        }

        // Kestrel read and wrote through the router's pool: its blocks come back to it (a written block only once the
        // socket's send completes, which may be after the caller has read the answer).
        await Eventually.TrueAsync(() => factory.Pool.Retained > 0, "a block came back to the router's pool");
    }
}
