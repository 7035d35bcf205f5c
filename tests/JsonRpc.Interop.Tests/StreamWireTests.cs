using System.Text.Json;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// The router's stream rewriting on the wire, with hand-written peers: which token each side sees, what the generator
/// receives for a pull, an abort and a consumer's departure, and the one-pull-at-a-time bound.
/// </summary>
public sealed class StreamWireTests
{
    /// <summary>
    /// Opens a stream of <paramref name="generatorToken"/> from a generator to a consumer. Without
    /// <paramref name="values"/> the generator sends its token alone, as StreamJsonRpc does without prefetch (the router
    /// then pulls only when the consumer does); with them it prefetches (and the router reads ahead).
    /// </summary>
    internal static async Task<(RawPeer Generator, RawPeer Consumer, long RouterToken)> OpenStreamAsync(RouterHost router, string generatorToken, string? values = null)
    {
        var generator = await RawPeer.ConnectRegisteredAsync(router.Port, "generator", "items");
        var consumer = await RawPeer.ConnectRegisteredAsync(router.Port, "consumer");
        await consumer.SendAsync("""{"jsonrpc":"2.0","id":"s","method":"items","params":[]}""");
        var (_, callId) = await generator.ReadCallAsync("items");
        var members = values is null ? "" : $$$""","values":{{{values}}}""";
        await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{callId}}},"result":{"token":{{{generatorToken}}}{{{members}}}}}""");
        using var answer = JsonDocument.Parse(await consumer.ReadLineAsync());
        var result = answer.RootElement.GetProperty("result");
        Assert.Equal(values is not null, result.TryGetProperty("values", out var sent));
        if (values is not null)
        {
            Assert.Equal(values, sent.GetRawText());
        }

        return (generator, consumer, result.GetProperty("token").GetInt64());
    }

    [Fact]
    public async Task Pull_ReachesTheGeneratorUnderItsOwnToken_AndFinishedEndsTheStream()
    {
        await using var router = await RouterHost.StartAsync();
        var (generator, consumer, token) = await OpenStreamAsync(router, "5");
        await using (generator)
        await using (consumer)
        {
            Assert.NotEqual(5, token); // the router's token, not the generator's
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":"n1","method":"$/enumerator/next","params":[{{{token}}}]}""");
            var (pull, pullId) = await generator.ReadCallAsync("$/enumerator/next");
            Assert.Equal("[5]", pull.GetProperty("params").GetRawText());
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[3],"finished":true}}""");
            Assert.Equal("""{"jsonrpc":"2.0","id":"n1","result":{"values":[3],"finished":true}}""", await consumer.ReadLineAsync());

            // Finished: the token is gone.
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":"n2","method":"$/enumerator/next","params":{"token":{{{token}}}}}""");
            using var gone = JsonDocument.Parse(await consumer.ReadLineAsync());
            Assert.Equal(-32001, gone.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        }
    }

    [Fact]
    public async Task SecondPullWhileOneWaits_IsRefused_OneBatchPerStream()
    {
        await using var router = await RouterHost.StartAsync();
        var (generator, consumer, token) = await OpenStreamAsync(router, "11");
        await using (generator)
        await using (consumer)
        {
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":1,"method":"$/enumerator/next","params":[{{{token}}}]}""");
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{{token}}}]}""");
            using (var refused = JsonDocument.Parse(await consumer.ReadLineAsync()))
            {
                Assert.Equal(2, refused.RootElement.GetProperty("id").GetInt32());
                Assert.Equal(-32600, refused.RootElement.GetProperty("error").GetProperty("code").GetInt32());
            }

            var (_, pullId) = await generator.ReadCallAsync("$/enumerator/next");
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{pullId}}},"result":{"values":[3],"finished":false}}""");
            Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":{"values":[3],"finished":false}}""", await consumer.ReadLineAsync());

            // The next pull may go now.
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":3,"method":"$/enumerator/next","params":[{{{token}}}]}""");
            var (third, _) = await generator.ReadCallAsync("$/enumerator/next");
            Assert.Equal("[11]", third.GetProperty("params").GetRawText());
        }
    }

    [Fact]
    public async Task Abort_AndConsumerDeparture_ReachTheGeneratorUnderItsOwnToken()
    {
        await using var router = await RouterHost.StartAsync();
        var (generator, consumer, token) = await OpenStreamAsync(router, "7");
        await using (generator)
        {
            await using (consumer)
            {
                await consumer.SendAsync($$$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[{{{token}}}]}""");
                Assert.Equal("""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[7]}""", await generator.ReadLineAsync());

                // A second stream, left open when the consumer goes.
                await consumer.SendAsync("""{"jsonrpc":"2.0","id":"t","method":"items","params":[]}""");
                var (_, callId) = await generator.ReadCallAsync("items");
                await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{callId}}},"result":{"token":8}}""");
                using var answer = JsonDocument.Parse(await consumer.ReadLineAsync());
                Assert.NotEqual(8, answer.RootElement.GetProperty("result").GetProperty("token").GetInt64()); // the router's, not the generator's
            }

            Assert.Equal("""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[8]}""", await generator.ReadLineAsync());
        }
    }

    [Fact]
    public async Task TwoConsumers_CannotPullEachOthersStreams()
    {
        await using var router = await RouterHost.StartAsync();
        var (generator, consumer, token) = await OpenStreamAsync(router, "9");
        await using var intruder = await RawPeer.ConnectRegisteredAsync(router.Port, "intruder");
        await using (generator)
        await using (consumer)
        {
            await intruder.SendAsync($$$"""{"jsonrpc":"2.0","id":1,"method":"$/enumerator/next","params":[{{{token}}}]}""");
            using var refused = JsonDocument.Parse(await intruder.ReadLineAsync());
            Assert.Equal(-32001, refused.RootElement.GetProperty("error").GetProperty("code").GetInt32());

            // Its abort changes nothing either: the owner still pulls.
            await intruder.SendAsync($$$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[{{{token}}}]}""");
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{{token}}}]}""");
            var (pull, _) = await generator.ReadCallAsync("$/enumerator/next");
            Assert.Equal("[9]", pull.GetProperty("params").GetRawText());
        }
    }

    [Fact]
    public async Task Streams_CountAgainstTheConsumersBound_OneThatDoesNotFitIsRefusedAndAborted()
    {
        // 4096 bytes for the consumer: 16 streams of 256 bytes each, when its queue is empty.
        await using var router = await RouterHost.StartAsync(o =>
        {
            o.MaxMessageSize = 4096;
            o.MaxOutboundBufferSize = 4096;
        });
        await using var generator = await RawPeer.ConnectRegisteredAsync(router.Port, "generator", "items");
        await using var consumer = await RawPeer.ConnectRegisteredAsync(router.Port, "consumer");
        var tokens = new List<long>();
        for (var i = 1; i <= 20; i++)
        {
            await consumer.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{i}}},"method":"items"}""");
            var (_, callId) = await generator.ReadCallAsync("items");
            await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{callId}}},"result":{"token":{{{100 + i}}}}}""");
            using var answer = JsonDocument.Parse(await consumer.ReadLineAsync());
            if (answer.RootElement.TryGetProperty("result", out var result))
            {
                tokens.Add(result.GetProperty("token").GetInt64());
                continue;
            }

            Assert.Equal(Server.RouterErrorCodes.Overloaded, answer.RootElement.GetProperty("error").GetProperty("code").GetInt32());
            Assert.Equal($$$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[{{{100 + i}}}]}""", await generator.ReadLineAsync());
        }

        Assert.Equal(16, tokens.Count);

        // Ending one makes room for one more.
        await consumer.SendAsync($$$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[{{{tokens[0]}}}]}""");
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[101]}""", await generator.ReadLineAsync());
        await consumer.SendAsync("""{"jsonrpc":"2.0","id":21,"method":"items"}""");
        var (_, lastId) = await generator.ReadCallAsync("items");
        await generator.SendAsync($$$"""{"jsonrpc":"2.0","id":{{{lastId}}},"result":{"token":121}}""");
        using var last = JsonDocument.Parse(await consumer.ReadLineAsync());
        Assert.True(last.RootElement.TryGetProperty("result", out _), last.RootElement.ToString());
    }

    [Fact]
    public async Task CallWithTooManyEnumerableArguments_IsRefusedWithInvalidParams_AndNeverForwarded()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await RawPeer.ConnectRegisteredAsync(router.Port, "provider", "take");
        await using var caller = await RawPeer.ConnectRegisteredAsync(router.Port, "caller");
        var many = string.Join(",", Enumerable.Range(1, 300).Select(i => $$"""{"token":{{i}}}"""));
        await caller.SendAsync($$$"""{"jsonrpc":"2.0","id":1,"method":"take","params":[{{{many}}}]}""");
        using var refused = JsonDocument.Parse(await caller.ReadLineAsync());
        Assert.Equal(-32602, refused.RootElement.GetProperty("error").GetProperty("code").GetInt32());

        // The provider got nothing: the next call is the first thing it reads.
        await caller.SendAsync("""{"jsonrpc":"2.0","id":2,"method":"take","params":[{"token":1}]}""");
        var (call, _) = await provider.ReadCallAsync("take");
        Assert.Equal(1, call.GetProperty("params").GetArrayLength());
    }

    [Fact]
    public async Task ProgressArgument_OnceTwoCallsProvedIt_TheProviderSeesTheRoutersToken_AndTheCallerItsOwn()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await RawPeer.ConnectRegisteredAsync(router.Port, "provider", "work", "add");
        await using var caller = await RawPeer.ConnectRegisteredAsync(router.Port, "caller");

        // Two calls whose second argument carried the token of a report: the first proves nothing yet (its second call
        // still goes unchanged), the second makes the router take that argument of "work" for a progress token.
        for (var i = 0; i < 2; i++)
        {
            await caller.SendAsync($$"""{"jsonrpc":"2.0","id":{{i}},"method":"work","params":["job",{{7 + i}}]}""");
            var (call, id) = await provider.ReadCallAsync("work");
            Assert.Equal($$"""["job",{{7 + i}}]""", call.GetProperty("params").GetRawText());
            await provider.SendAsync($$"""{"jsonrpc":"2.0","method":"$/progress","params":[{{7 + i}},{"pct":50}]}""");
            Assert.Equal($$"""{"jsonrpc":"2.0","method":"$/progress","params":[{{7 + i}},{"pct":50}]}""", await caller.ReadLineAsync());
            await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{id}},"result":true}""");
            Assert.Equal($$"""{"jsonrpc":"2.0","id":{{i}},"result":true}""", await caller.ReadLineAsync());
        }

        // From now on the provider sees a token of the router's there, and the caller gets its own back, the rest unchanged.
        await caller.SendAsync("""{"jsonrpc":"2.0","id":"c","method":"work","params":["job",7]}""");
        var (learned, learnedId) = await provider.ReadCallAsync("work");
        var args = learned.GetProperty("params");
        Assert.Equal("job", args[0].GetString());
        var routerToken = args[1].GetInt64();
        Assert.True(routerToken > 1L << 52, $"the provider saw {routerToken}, not a token of the router's");
        await provider.SendAsync($$"""{"jsonrpc":"2.0","method":"$/progress","params":[{{routerToken}},{"pct":99}]}""");
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/progress","params":[7,{"pct":99}]}""", await caller.ReadLineAsync());
        await provider.SendAsync($$$"""{"jsonrpc":"2.0","method":"$/progress","params":{"token":{{{routerToken}}},"value":100}}""");
        Assert.Equal("""{"jsonrpc":"2.0","method":"$/progress","params":{"token":7,"value":100}}""", await caller.ReadLineAsync());
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{learnedId}},"result":true}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"c","result":true}""", await caller.ReadLineAsync());

        // Another method's integers are never touched, even one equal to a learned token, nor by name.
        await caller.SendAsync("""{"jsonrpc":"2.0","id":"a","method":"add","params":[7,8]}""");
        var (add, addId) = await provider.ReadCallAsync("add");
        Assert.Equal("[7,8]", add.GetProperty("params").GetRawText());
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{addId}},"result":15}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"a","result":15}""", await caller.ReadLineAsync());
        await caller.SendAsync("""{"jsonrpc":"2.0","id":"n","method":"work","params":{"name":"job","count":7}}""");
        var (byName, byNameId) = await provider.ReadCallAsync("work");
        Assert.Equal("""{"name":"job","count":7}""", byName.GetProperty("params").GetRawText());
        await provider.SendAsync($$"""{"jsonrpc":"2.0","id":{{byNameId}},"result":true}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"n","result":true}""", await caller.ReadLineAsync());
    }
}
