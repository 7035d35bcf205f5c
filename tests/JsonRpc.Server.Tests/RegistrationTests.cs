
namespace JsonRpc.Server.Tests;

public sealed class RegistrationTests(ITestOutputHelper output)
{
    [Fact]
    public async Task RegisterClient_NameHeldByConnectedClient_IsRefused()
    {
        await using var server = await RouterServer.StartAsync(output: output);
        await using var first = await server.ConnectRegisteredAsync("calc");
        await using var second = await server.ConnectAsync();

        Answer.IsError(await second.CallAsync("register_client", """{"name":"calc"}"""), RouterErrorCodes.NameTaken);

        // Once the holder disconnects, the name is free again.
        await first.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().RegisteredClients == 0, "the holder is gone");
        Answer.IsResult(await second.CallAsync("register_client", """["calc"]"""), "true");
    }

    [Fact]
    public async Task RegisterClient_Twice_IsRefused()
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectRegisteredAsync("a");
        Answer.IsError(await client.CallAsync("register_client", """{"name":"b"}"""), RouterErrorCodes.AlreadyRegistered);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("{}")]
    [InlineData("""{"name":5}""")]
    [InlineData("""{"name":""}""")]
    [InlineData("[]")]
    public async Task RegisterClient_BadName_IsInvalidParams(string? @params)
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectAsync();
        Answer.IsError(await client.CallAsync("register_client", @params), -32602);
    }

    [Theory]
    [InlineData("register_method", """{"method":"add"}""")]
    [InlineData("subscribe", """{"event":"tick"}""")]
    public async Task RegisterMethodOrSubscribe_BeforeRegisterClient_IsRefused(string method, string @params)
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectAsync();
        Answer.IsError(await client.CallAsync(method, @params), RouterErrorCodes.NotRegistered);
    }

    [Theory]
    [InlineData("keepAlive")]
    [InlineData("get_server_stats")]
    public async Task RegisterMethod_BuiltInName_IsReserved(string name)
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectRegisteredAsync("a");
        Answer.IsError(await client.CallAsync("register_method", $$"""{"method":"{{name}}"}"""), RouterErrorCodes.MethodReserved);
    }

    [Fact]
    public async Task MaxRoutesPerConnection_MethodsAndSubscriptionsTogether_AreBounded()
    {
        await using var server = await RouterServer.StartAsync(o => o.MaxRoutesPerConnection = 3, output);
        await using var client = await server.ConnectAsync();
        await using var other = await server.ConnectAsync();
        Answer.IsResult(await client.CallAsync("register_client", """{"name":"many"}"""), "true");
        Answer.IsResult(await other.CallAsync("register_client", """{"name":"other"}"""), "true");

        Answer.IsResult(await client.CallAsync("register_method", """{"method":"m1"}"""), "true");
        Answer.IsResult(await client.CallAsync("register_method", """{"method":"m2"}"""), "true");
        Answer.IsResult(await client.CallAsync("subscribe", """{"event":"e1"}"""), "true");

        // Full: a new name of either kind is refused, and leaves no trace in the routing table.
        Answer.IsError(await client.CallAsync("register_method", """{"method":"m3"}"""), RouterErrorCodes.TooManyRoutes);
        Answer.IsError(await client.CallAsync("subscribe", """{"event":"e2"}"""), RouterErrorCodes.TooManyRoutes);
        Answer.IsError(await other.CallAsync("m3", "[]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);
        var list = (await client.CallAsync("list_methods")).GetProperty("result");
        Assert.Equal("""[{"method":"m1","providers":["many"]},{"method":"m2","providers":["many"]}]""", list.GetRawText());
        Assert.Equal(1, server.Router.GetStats().Subscriptions);

        // Names the connection already has take no more room; another connection has room of its own.
        Answer.IsResult(await client.CallAsync("register_method", """{"method":"m1"}"""), "true");
        Answer.IsResult(await client.CallAsync("subscribe", """{"event":"e1"}"""), "true");
        Answer.IsResult(await other.CallAsync("register_method", """{"method":"m3"}"""), "true");

        // Giving one up makes room again.
        Answer.IsResult(await client.CallAsync("unregister_method", """{"method":"m2"}"""), "true");
        Answer.IsResult(await client.CallAsync("subscribe", """{"event":"e2"}"""), "true");
        Answer.IsError(await client.CallAsync("register_method", """{"method":"m4"}"""), RouterErrorCodes.TooManyRoutes);
    }

    [Fact]
    public async Task UnregisteredClient_WithoutRequiredRegistration_CanCall()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "echo");
        await using var plain = await server.ConnectAsync();
        await plain.SendAsync(LineClient.Request(1, "echo", "[1]"));
        await provider.ServeOneAsync("\"ok\"");
        Answer.IsResult(await plain.ReadAsync(), "\"ok\"");
    }

    [Fact]
    public async Task RequireRegistration_Unregistered_MayOnlyKeepAliveAndGetStats()
    {
        await using var server = await RouterServer.StartAsync(o => o.RequireRegistration = true);
        await using var provider = await server.ConnectRegisteredAsync("p", "echo");
        await using var client = await server.ConnectAsync();

        Answer.IsResult(await client.CallAsync("keepAlive"), "true");
        Assert.Equal(2, (await client.StatsAsync()).GetProperty("connections").GetInt32());
        Answer.IsError(await client.CallAsync("echo", "[1]"), RouterErrorCodes.NotRegistered);
        Answer.IsError(await client.CallAsync("list_methods"), RouterErrorCodes.NotRegistered);
        Answer.IsError(await client.CallAsync("nothing_at_all"), RouterErrorCodes.NotRegistered);

        await client.RegisterAsync("c");
        await client.SendAsync(LineClient.Request(7, "echo"));
        await provider.ServeOneAsync("1");
        Answer.IsResult(await client.ReadAsync(), "1");
    }

    [Fact]
    public async Task RequireRegistration_NotRegisteredInTime_IsClosedWithError()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.RequireRegistration = true;
            o.RegistrationTimeout = TimeSpan.FromMilliseconds(200);
        });
        await using var registered = await server.ConnectRegisteredAsync("r");
        await using var lingering = await server.ConnectAsync();
        Answer.IsResult(await lingering.CallAsync("keepAlive"), "true"); // traffic does not count as registering

        var notice = await lingering.ReadAsync(TimeSpan.FromSeconds(3));
        Answer.IsError(notice, RouterErrorCodes.RegistrationTimeout);
        await lingering.AssertClosedAsync();

        // The registered client stays.
        Answer.IsResult(await registered.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task AccessToken_Right_Registers()
    {
        await using var server = await RouterServer.StartAsync(o => o.AccessToken = "s3cret");
        await using var client = await server.ConnectAsync();
        await client.RegisterAsync("a", "s3cret");
        Assert.Equal(1, server.Router.GetStats().RegisteredClients);
        Answer.IsError(await client.CallAsync("register_client", """{"name":"b","token":"s3cret"}"""), RouterErrorCodes.AlreadyRegistered);
        Answer.IsResult(await client.CallAsync("keepAlive"), "true"); // refused, not closed
    }

    [Theory]
    [InlineData("""{"name":"a","token":"wrong"}""")]
    [InlineData("""{"name":"a","token":"s3cret "}""")]
    [InlineData("""{"name":"a"}""")]
    [InlineData("""["a","s3cre"]""")]
    public async Task AccessToken_WrongOrMissing_IsDeniedAndClosed(string @params)
    {
        await using var server = await RouterServer.StartAsync(o => o.AccessToken = "s3cret");
        await using var client = await server.ConnectAsync();
        Answer.IsError(await client.CallAsync("register_client", @params), RouterErrorCodes.AccessDenied);
        await client.AssertClosedAsync();
        Assert.Equal(0, server.Router.GetStats().RegisteredClients);
    }

    [Fact]
    public async Task AccessToken_ByPosition_Registers()
    {
        await using var server = await RouterServer.StartAsync(o => o.AccessToken = "s3cret");
        await using var client = await server.ConnectAsync();
        Answer.IsResult(await client.CallAsync("register_client", """["a","s3cret"]"""), "true");
    }

    [Fact]
    public async Task UnregisterMethod_StopsRouting()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectRegisteredAsync("p", "work");
        await using var caller = await server.ConnectAsync();

        Answer.IsResult(await provider.CallAsync("unregister_method", """{"method":"work"}"""), "true");
        Answer.IsResult(await provider.CallAsync("unregister_method", """{"method":"work"}"""), "false");
        Answer.IsError(await caller.CallAsync("work"), -32601);
        Assert.Equal(0, server.Router.GetStats().Methods);
    }

    [Fact]
    public async Task ListMethods_NamesEveryProvider()
    {
        await using var server = await RouterServer.StartAsync();
        await using var a = await server.ConnectRegisteredAsync("a", "add", "mul");
        await using var b = await server.ConnectRegisteredAsync("b", "add");
        await using var caller = await server.ConnectAsync();

        var list = (await caller.CallAsync("list_methods")).GetProperty("result");
        Assert.Equal("""[{"method":"add","providers":["a","b"]},{"method":"mul","providers":["a"]}]""", list.GetRawText());

        await a.DisposeAsync();
        await Eventually.TrueAsync(() => server.Router.GetStats().Providers == 1, "a's registrations are gone");
        list = (await caller.CallAsync("list_methods")).GetProperty("result");
        Assert.Equal("""[{"method":"add","providers":["b"]}]""", list.GetRawText());
    }
}
