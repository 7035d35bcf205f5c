using System.Text.Json;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The router reads one batch ahead of the consumer of a stream whose generator prefetches, on the wire with raw peers:
/// the router's own pull, the consumer's pull answered from what it holds or taking over the pull on its way, and what
/// the consumer gets when the read-ahead fails.
/// </summary>
public sealed class StreamReadAheadTests
{
    /// <summary>
    /// A generator ("gen", providing <c>items</c> and <c>ping</c>) and a consumer ("con", providing <c>ping</c>), and a
    /// stream of generator token 5 opened by the consumer's call: with <paramref name="values"/> the generator prefetches.
    /// </summary>
    private static async Task<(LineClient Generator, LineClient Consumer, long Token)> OpenAsync(RouterHost router, string? values)
    {
        var generator = await router.ConnectRegisteredAsync("gen", "items", "gen.ping");
        var consumer = await router.ConnectRegisteredAsync("con", "con.ping");
        await consumer.SendAsync(LineClient.Request("open", "items"));
        var call = await generator.ReadAsync();
        var members = values is null ? "" : $",\"values\":{values}";
        await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{call.GetProperty("id").GetRawText()}}},"result":{"token":5{{{members}}}}}""");
        var answer = await consumer.ReadAsync();
        Assert.Equal("open", answer.GetProperty("id").GetString());
        return (generator, consumer, answer.GetProperty("result").GetProperty("token").GetInt64());
    }

    private static string Pull(string id, long token) => LineClient.Request(id, "$/enumerator/next", $"[{token}]");

    /// <summary>Reads the router's pull at the generator: <c>$/enumerator/next</c> of the generator's token; returns its id.</summary>
    private static async Task<string> ReadPullAsync(LineClient generator)
    {
        var pull = await generator.ReadAsync();
        Assert.Equal("$/enumerator/next", pull.GetProperty("method").GetString());
        Assert.Equal("[5]", pull.GetProperty("params").GetRawText());
        return pull.GetProperty("id").GetRawText();
    }

    /// <summary>
    /// Everything the router read from the generator before this returns has been handled: the generator calls the
    /// consumer's <c>con.ping</c>, which the router reads after what the generator sent before it.
    /// </summary>
    private static async Task SettleAsync(LineClient generator, LineClient consumer)
    {
        await generator.SendAsync(LineClient.Request("settle", "con.ping"));
        var ping = await consumer.ReadAsync();
        Assert.Equal("con.ping", ping.GetProperty("method").GetString());
        await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{ping.GetProperty("id").GetRawText()}}},"result":true}""");
        Assert.Equal("settle", (await generator.ReadAsync()).GetProperty("id").GetString());
    }

    [Fact]
    public async Task PrefetchingStream_RouterPullsBeforeTheConsumerAsks_AndAnswersItsPullsFromWhatItHolds()
    {
        await using var router = await RouterServer.StartAsync();
        var (generator, consumer, token) = await OpenAsync(router, "[1,2]");
        await using (generator)
        await using (consumer)
        {
            // The consumer has not pulled, yet the generator is asked for the next batch.
            var pullId = await ReadPullAsync(generator);
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[3,4],"finished":false}}""");
            await SettleAsync(generator, consumer);

            // Held by the router: the consumer's pull is answered under its own id, exactly as the generator wrote it.
            await consumer.SendAsync(Pull("n1", token));
            Assert.Equal("""{"jsonrpc":"2.0","id":"n1","result":{"values":[3,4],"finished":false}}""", await consumer.ReadLineAsync());

            // And the router asks for the batch after it; the last one ends the stream once the consumer has it.
            pullId = await ReadPullAsync(generator);
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[5],"finished":true}}""");
            await SettleAsync(generator, consumer);
            Assert.Equal(1, router.Router.OpenStreams);
            await consumer.SendAsync(Pull("n2", token));
            Assert.Equal("""{"jsonrpc":"2.0","id":"n2","result":{"values":[5],"finished":true}}""", await consumer.ReadLineAsync());
            Answer.IsError(await consumer.CallAsync("$/enumerator/next", $"[{token}]"), -32001);
            Assert.Equal(0, router.Router.OpenStreams);

            // Nothing more is pulled from a finished stream: the generator's next message is the consumer's call.
            await consumer.SendAsync(LineClient.Request("p", "gen.ping"));
            Assert.Equal("gen.ping", (await generator.ReadAsync()).GetProperty("method").GetString());
        }
    }

    [Fact]
    public async Task ConsumersPull_TakesOverTheRoutersPullOnItsWay()
    {
        await using var router = await RouterServer.StartAsync();
        var (generator, consumer, token) = await OpenAsync(router, "[1]");
        await using (generator)
        await using (consumer)
        {
            var pullId = await ReadPullAsync(generator);

            // The consumer pulls while the router's pull waits; its call behind it shows the router has read the pull.
            await consumer.SendAsync(Pull("n1", token));
            await consumer.SendAsync(LineClient.Request("p", "gen.ping"));
            var ping = await generator.ReadAsync();
            Assert.Equal("gen.ping", ping.GetProperty("method").GetString()); // no second pull went to the generator

            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[2],"finished":false}}""");
            Assert.Equal("""{"jsonrpc":"2.0","id":"n1","result":{"values":[2],"finished":false}}""", await consumer.ReadLineAsync());

            // A pull in a batch is answered in the batch, from what the router read ahead.
            pullId = await ReadPullAsync(generator);
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[3],"finished":false}}""");
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{ping.GetProperty("id").GetRawText()}}},"result":"pong"}""");
            Assert.Equal("p", (await consumer.ReadAsync()).GetProperty("id").GetString());
            await consumer.SendAsync($"[{Pull("b1", token)},{LineClient.Request("b2", "keepAlive")}]");
            var batch = await consumer.ReadAsync();
            Assert.Equal(JsonValueKind.Array, batch.ValueKind);
            var pulled = batch.EnumerateArray().Single(item => item.GetProperty("id").GetString() == "b1");
            Assert.Equal("""{"values":[3],"finished":false}""", pulled.GetProperty("result").GetRawText());
            Assert.Contains(batch.EnumerateArray(), item => item.GetProperty("id").GetString() == "b2");
        }
    }

    [Theory]
    [InlineData(null, true)] // the generator does not prefetch
    [InlineData("[1,2]", false)] // stream_read_ahead off
    public async Task WithoutPrefetchOrWithReadAheadOff_TheGeneratorIsPulledOnlyWhenTheConsumerPulls(string? values, bool readAhead)
    {
        await using var router = await RouterServer.StartAsync(o => o.StreamReadAhead = readAhead);
        var (generator, consumer, token) = await OpenAsync(router, values);
        await using (generator)
        await using (consumer)
        {
            // Had the router pulled ahead, its pull would have reached the generator before this call.
            await consumer.SendAsync(LineClient.Request("p", "gen.ping"));
            Assert.Equal("gen.ping", (await generator.ReadAsync()).GetProperty("method").GetString());

            await consumer.SendAsync(Pull("n1", token));
            var pullId = await ReadPullAsync(generator);
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[3],"finished":false}}""");
            Assert.Equal("""{"jsonrpc":"2.0","id":"n1","result":{"values":[3],"finished":false}}""", await consumer.ReadLineAsync());
        }
    }

    [Fact]
    public async Task GeneratorLeaves_WhileTheRouterPulls_TheConsumersNextPullIsToldSo()
    {
        await using var router = await RouterServer.StartAsync();
        var (generator, consumer, token) = await OpenAsync(router, "[1]");
        await using (consumer)
        {
            await ReadPullAsync(generator);
            await generator.DisposeAsync();
            await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 1, "the generator's connection closes");
            Answer.IsError(await consumer.CallAsync("$/enumerator/next", $"[{token}]"), RouterErrorCodes.ProviderDisconnected);
            Assert.Equal(0, router.Router.OpenStreams);
        }
    }

    [Fact]
    public async Task RoutersPullTimesOut_TheConsumersNextPullGetsTheTimeout_AndTheGeneratorIsToldToStop()
    {
        await using var router = await RouterServer.StartAsync(o => o.CallTimeout = TimeSpan.FromMilliseconds(300));
        var (generator, consumer, token) = await OpenAsync(router, "[1]");
        await using (generator)
        await using (consumer)
        {
            var pullId = await ReadPullAsync(generator);
            var cancel = await generator.ReadAsync(); // the router gives up on its pull and says so
            Assert.Equal("$/cancelRequest", cancel.GetProperty("method").GetString());
            Assert.Equal(pullId, cancel.GetProperty("params").GetProperty("id").GetRawText());
            var timedOut = await consumer.CallAsync("$/enumerator/next", $"[{token}]");
            Answer.IsError(timedOut, RouterErrorCodes.CallTimeout);
            Assert.Equal("Call timed out", timedOut.GetProperty("error").GetProperty("message").GetString()); // not "unknown token", also -32001
            Assert.Equal(0, router.Router.OpenStreams);
        }
    }

    [Fact]
    public async Task ConsumerAborts_WhileABatchIsHeld_TheGeneratorIsAbortedAndNothingIsLeft()
    {
        await using var router = await RouterServer.StartAsync();
        var idle = router.Router.Memory.Held;
        var (generator, consumer, token) = await OpenAsync(router, "[1]");
        await using (generator)
        await using (consumer)
        {
            // A batch bigger than the room reserved for it (twice the last one, at least 4 KiB) is counted when it comes.
            var pullId = await ReadPullAsync(generator);
            var digits = new string('7', 10_000);
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[{{{digits}}}],"finished":false}}""");
            await SettleAsync(generator, consumer);
            Assert.True(router.Router.Memory.Held >= idle + 10_000, $"Held {router.Router.Memory.Held} bytes with the batch read ahead, {idle} idle.");

            await consumer.SendAsync(LineClient.Notification("$/enumerator/abort", $"[{token}]"));
            Assert.Equal("""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[5]}""", await generator.ReadLineAsync());
            await Eventually.TrueAsync(() => router.Router.OpenStreams == 0, "the stream ends with the abort");
            await Eventually.TrueAsync(() => router.Router.Memory.Held <= idle, "what the stream held is given back");
        }
    }
}
