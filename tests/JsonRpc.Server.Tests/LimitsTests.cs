using System.Net.Sockets;
using System.Text;

namespace JsonRpc.Server.Tests;

public sealed class LimitsTests(ITestOutputHelper output)
{
    [Fact]
    public async Task KeepAlive_ResetsIdleTimer_IdleConnectionIsClosed()
    {
        // Margins wide enough for a loaded machine: the lively client speaks every 100 ms against a 1 s timeout.
        await using var server = await RouterServer.StartAsync(o => o.KeepAliveTimeout = TimeSpan.FromSeconds(1), output);
        await using var lively = await server.ConnectAsync();
        await using var idle = await server.ConnectAsync();
        await idle.SendAsync(LineClient.Notification("keepAlive")); // a notification is traffic too

        for (var i = 0; i < 16; i++)
        {
            await Task.Delay(100);
            await lively.SendAsync(LineClient.Notification("keepAlive"));
        }

        var notice = await idle.ReadAsync(TimeSpan.FromSeconds(10));
        Answer.IsError(notice, RouterErrorCodes.IdleTimeout);
        await idle.AssertClosedAsync();
        Answer.IsResult(await lively.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task MaxMessageSize_OversizedMessage_ErrorThenClose()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxMessageSize = 64 * 1024, output);
        await using var other = await server.ConnectAsync();
        await using var client = await server.ConnectAsync();
        var big = $$"""{"jsonrpc":"2.0","id":1,"method":"x","params":["{{new string('a', 100_000)}}"]}""";
        await client.SendAsync(big);

        Answer.IsError(await client.ReadAsync(), RouterErrorCodes.MessageTooLarge);
        await client.AssertClosedAsync();
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");

        // Exactly at the limit is fine.
        var padding = 64 * 1024 - """{"jsonrpc":"2.0","id":1,"method":"keepAlive","params":[""]}""".Length;
        await other.SendAsync($$"""{"jsonrpc":"2.0","id":1,"method":"keepAlive","params":["{{new string('b', padding)}}"]}""");
        Answer.IsResult(await other.ReadAsync(), "true");
    }

    [Fact]
    public async Task MaxMessageSize_EndlessMessage_IsRefusedWithoutBufferingIt()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxMessageSize = 64 * 1024);
        await using var other = await server.ConnectAsync();
        await using var client = await server.ConnectAsync();

        // 256 MiB that never ends a line: the router must give up long before, not buffer it.
        var chunk = Encoding.ASCII.GetBytes("[" + new string('1', 64 * 1024));
        long sent = 0;
        var refused = false;
        try
        {
            for (var i = 0; i < 4096; i++)
            {
                await client.Stream.WriteAsync(chunk).AsTask().WaitAsync(TimeSpan.FromSeconds(5));
                sent += chunk.Length;
            }
        }
        catch (IOException)
        {
            refused = true;
        }

        Assert.True(refused, $"the router accepted {sent} bytes of one message");
        Assert.True(sent < 64L * 1024 * 1024, $"sent {sent} bytes before the close");
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 1, "the connection is dropped");
        Answer.IsResult(await other.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task MaxConnections_ExtraConnectionIsRefusedWithError()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxConnections = 2);
        await using var a = await server.ConnectAsync();
        var b = await server.ConnectAsync();
        Answer.IsResult(await a.CallAsync("keepAlive"), "true");
        Answer.IsResult(await b.CallAsync("keepAlive"), "true");

        await using var c = await server.ConnectAsync();
        Answer.IsError(await c.ReadAsync(), RouterErrorCodes.TooManyConnections);
        await c.AssertClosedAsync();
        Assert.Equal(1, server.Router.GetStats().ConnectionsRejected);

        await b.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 1, "b is gone");
        await using var d = await server.ConnectAsync();
        Answer.IsResult(await d.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task MaxDepth_TooDeep_IsParseErrorAndConnectionStays()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxDepth = 8);
        await using var client = await server.ConnectAsync();
        var deep = new string('[', 20) + new string(']', 20);
        await client.SendAsync($$"""{"jsonrpc":"2.0","id":1,"method":"keepAlive","params":{{deep}}}""");
        Answer.IsError(await client.ReadAsync(), -32700);

        var shallow = new string('[', 6) + new string(']', 6);
        await client.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"keepAlive","params":{{shallow}}}""");
        Answer.IsResult(await client.ReadAsync(), "true");
    }

    [Fact]
    public async Task ClientNeverReads_IsDropped_OthersKeepWorking()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = 256 * 1024;
        }, output);
        await using var publisher = await server.ConnectAsync();
        await using var reader = await server.ConnectRegisteredAsync("reader");
        await using var sleeper = await server.ConnectRegisteredAsync("sleeper");
        await reader.SubscribeAsync("flood");
        await sleeper.SubscribeAsync("flood");
        sleeper.Socket.ReceiveBufferSize = 4096;
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 3, "the router has all three connections");

        using var stop = new CancellationTokenSource();
        var received = 0;
        var reading = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested && await reader.ReadLineAsync(TimeSpan.FromSeconds(10)) is not null)
            {
                Interlocked.Increment(ref received);
            }
        });

        var @event = LineClient.Notification("flood", $"[\"{new string('x', 60_000)}\"]");
        var published = 0;
        for (; published < 2000 && server.Router.GetStats().Connections == 3; published++)
        {
            await publisher.SendAsync(@event);

            // The reader keeps up (a reader more than the limit behind would be dropped too); only the sleeper lags.
            var target = published + 1;
            await Eventually.TrueAsync(() => Volatile.Read(ref received) >= target, "the reader keeps up");
        }

        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the sleeper is dropped");
        output.WriteLine($"sleeper dropped after {published} events");
        Assert.True(published < 2000);
        Answer.IsResult(await publisher.CallAsync("keepAlive"), "true");
        await publisher.SendAsync(@event);
        await Eventually.TrueAsync(() => Volatile.Read(ref received) == published + 1, "the reader still gets every event");
        stop.Cancel();
        await reader.DisposeAsync();
        await reading.WaitAsync(TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task ClientNeverReads_ProviderVanishes_CallersStillAnswered()
    {
        // A provider that stops reading is dropped once its queue fills; its callers get errors, not silence.
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.MaxMessageSize = 64 * 1024;
            o.MaxOutboundBufferSize = 128 * 1024;
            o.MaxPendingCallsPerConnection = 10_000;
        }, output);
        await using var provider = await server.ConnectRegisteredAsync("deaf", "work");
        provider.Socket.ReceiveBufferSize = 4096;
        await using var caller = await server.ConnectAsync();

        // The TCP connect completes before the router has taken the connection: the loop below counts on both.
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the router has both connections");
        var request = LineClient.Request(1, "work", $"[\"{new string('y', 30_000)}\"]");
        var sent = 0;
        for (; sent < 3000 && server.Router.GetStats().Connections == 2; sent++)
        {
            await caller.SendAsync(request);
        }

        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 1, "the deaf provider is dropped");
        var errors = 0;
        for (var i = 0; i < sent; i++)
        {
            var answer = await caller.ReadAsync();
            // No provider any more, the provider dropped with the call, or the call timed out while the router waited
            // for the deaf provider to take anything (it stops reading the caller meanwhile): an error each, never silence.
            var code = answer.GetProperty("error").GetProperty("code").GetInt32();
            Assert.Contains(code, new[] { JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound, RouterErrorCodes.ProviderDisconnected, RouterErrorCodes.CallTimeout });
            errors++;
        }

        Assert.Equal(sent, errors);
        Assert.Equal(0, server.Router.GetStats().PendingCalls);
    }

    [Fact]
    public async Task Socket_ResetByClient_RouterCarriesOn()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "w");
        await using var caller = await server.ConnectAsync();
        var rude = await server.ConnectAsync();
        await rude.SendRawAsync(Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","id":1,"method":"w","par"""));
        rude.Socket.LingerState = new LingerOption(true, 0);
        rude.Socket.Close(); // RST mid-message
        await Eventually.TrueAsync(() => server.Router.GetStats().Connections == 2, "the rude client is gone");

        await caller.SendAsync(LineClient.Request(2, "w"));
        await provider.ServeOneAsync("2");
        Answer.IsResult(await caller.ReadAsync(), "2");
    }
}
