
namespace JsonRpc.Cluster.Tests;

public sealed class ClusterEventTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task Publish_SubscribersOnEveryNode_EachGetsItExactlyOnce()
    {
        await using var cluster = await ClusterNodes.StartAsync(3, output);
        var subscribers = new List<LineClient>();
        try
        {
            for (var node = 0; node < 3; node++)
            {
                for (var k = 0; k < 2; k++)
                {
                    var client = await cluster.ConnectRegisteredAsync(node, $"sub-{node}-{k}");
                    await client.SubscribeAsync("tick");
                    subscribers.Add(client);
                }
            }

            await Eventually.TrueAsync(() => cluster.Nodes.TrueForAll(n => Subscribers(n.Host.Router) == 4), "every node routes tick to the others");
            await using var publisher = await cluster.ConnectRegisteredAsync(1, "publisher");
            for (var i = 0; i < 5; i++)
            {
                await publisher.SendAsync(LineClient.Notification("tick", $"[{i}]"));
            }

            foreach (var subscriber in subscribers)
            {
                for (var i = 0; i < 5; i++)
                {
                    var ev = await subscriber.ReadAsync();
                    Assert.Equal("tick", ev.GetProperty("method").GetString());
                    Assert.Equal(i, ev.GetProperty("params")[0].GetInt32());
                }
            }

            foreach (var subscriber in subscribers)
            {
                await subscriber.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
            }
        }
        finally
        {
            foreach (var subscriber in subscribers)
            {
                await subscriber.DisposeAsync();
            }
        }

        // Two local subscribers, and one connection for each of the two other nodes.
        static int Subscribers(JsonRpc.Server.JsonRpcRouter router)
            => router.Routes.TryGetValue("tick"u8.ToArray(), out var route) ? route.Subscribers.Length : 0;
    }
}
