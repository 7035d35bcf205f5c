
namespace JsonRpc.Server.Tests;

public sealed class PubSubTests
{
    [Fact]
    public async Task Publish_FansOutToEverySubscriberButTheSender()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a");
        await using var b = await server.ConnectRegisteredAsync("b");
        await using var c = await server.ConnectRegisteredAsync("c");
        await using var outsider = await server.ConnectRegisteredAsync("o");
        await a.SubscribeAsync("tick");
        await b.SubscribeAsync("tick");
        await c.SubscribeAsync("tick");

        const string Event = """{"jsonrpc":"2.0","method":"tick","params":{"n":1,"s":"\u00fc"}}""";
        await a.SendAsync(Event);
        Assert.Equal(Event, await b.ReadLineAsync());
        Assert.Equal(Event, await c.ReadLineAsync());
        await a.AssertSilentAsync(TimeSpan.FromMilliseconds(100));
        await outsider.AssertSilentAsync(TimeSpan.FromMilliseconds(10));

        // A plain, unregistered client may publish too; every subscriber hears it.
        await using var plain = await server.ConnectAsync();
        await plain.SendAsync(Event);
        Assert.Equal(Event, await a.ReadLineAsync());
        Assert.Equal(Event, await b.ReadLineAsync());
        Assert.Equal(Event, await c.ReadLineAsync());

        var stats = server.Router.GetStats();
        Assert.Equal(2, stats.EventsPublished);
        Assert.Equal(5, stats.EventsDelivered);
        Assert.Equal(3, stats.Subscriptions);
    }

    [Fact]
    public async Task Unsubscribe_StopsDelivery()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a");
        await using var b = await server.ConnectRegisteredAsync("b");
        await b.SubscribeAsync("e");
        Answer.IsResult(await b.CallAsync("unsubscribe", """{"event":"e"}"""), "true");
        Answer.IsResult(await b.CallAsync("unsubscribe", """["e"]"""), "false");

        await a.SendAsync(LineClient.Notification("e"));
        await b.AssertSilentAsync(TimeSpan.FromMilliseconds(150));
        Assert.Equal(0, server.Router.GetStats().Subscriptions);
    }

    [Fact]
    public async Task Subscriber_Disconnects_OthersStillReceive()
    {
        await using var server = await RouterServer.StartAsync();
        await using var publisher = await server.ConnectAsync();
        var gone = await server.ConnectRegisteredAsync("gone");
        await using var stays = await server.ConnectRegisteredAsync("stays");
        await gone.SubscribeAsync("e");
        await stays.SubscribeAsync("e");
        await gone.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Subscriptions == 1, "the gone subscriber is removed");

        await publisher.SendAsync(LineClient.Notification("e", "[1]"));
        Assert.Equal(LineClient.Notification("e", "[1]"), await stays.ReadLineAsync());
    }
}
