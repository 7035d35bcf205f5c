using System.Collections.Concurrent;
using JsonRpc.Client.Tests.Infrastructure;

namespace JsonRpc.Client.Tests;

/// <summary>The quick start of src/JsonRpc.Client/README.md, as written, against the real router.</summary>
public sealed class ReadmeTests
{
    [Fact]
    public async Task QuickStart_AsDocumented_Works()
    {
        await using var router = await RouterHost.StartAsync();
        await using var helper = await router.ConnectAsync();
        helper.AddMethod("add", (int a, int b) => a + b);
        helper.AddMethod("subtract", (int minuend, int subtrahend) => minuend - subtrahend);
        await helper.RegisterAsync("math").Bounded();
        var headlines = new ConcurrentQueue<string?>();
        await helper.SubscribeAsync<string>("news", headlines.Enqueue).Bounded();

        // --- README quick start ---
        await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port);

        int sum = await client.CallAsync<int>("add", new object[] { 2, 3 });
        int diff = await client.CallAsync<int>("subtract", new { minuend = 5, subtrahend = 3 });

        client.AddMethod("multiply", (int a, int b) => a * b);
        await client.RegisterAsync("calculator");

        await client.SubscribeAsync<string>("news", headline => Console.WriteLine(headline));
        await client.PublishAsync("news", "hello");
        // --- end ---

        Assert.Equal(5, sum);
        Assert.Equal(2, diff);
        Assert.Equal(42, await helper.CallAsync<int>("multiply", new[] { 6, 7 }).Bounded());
        await Timeouts.Until(() => headlines.Count == 1, "the helper got the published event");
        Assert.Equal("hello", headlines.Single());
    }
}
