using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Server.Tests;

/// <summary><c>rpc.discover</c>: the router's OpenRPC document, and descriptions given with <c>register_method</c>.</summary>
public sealed partial class DiscoveryTests(ITestOutputHelper output)
{
    [JsonSerializable(typeof(int[]))]
    [JsonSerializable(typeof(int))]
    private sealed partial class DiscoveryContext : JsonSerializerContext;

    // One line: the router's TCP framing here is newline-delimited.
    private const string AddDescription = """{"summary":"Adds two numbers.","paramStructure":"by-position","params":[{"name":"a","required":true,"schema":{"type":"integer"}},{"name":"b","required":true,"schema":{"type":"integer"}}],"result":{"name":"sum","schema":{"type":"integer"}}}""";

    [Fact]
    public async Task Discover_ListsOwnHostAndProvidedMethods_WithTheProvidersDescriptions()
    {
        await using var server = await RouterServer.StartAsync(setup: router =>
        {
            router.AddMethod("sum", (int[] values, CancellationToken _) => ValueTask.FromResult(values.Sum()), DiscoveryContext.Default.Int32Array, DiscoveryContext.Default.Int32);
            router.Methods.Describe("sum", "Adds them all.", null);
        });
        await using var described = await server.ConnectAsync();
        await described.RegisterAsync("calc1");
        Answer.IsResult(await described.CallAsync("register_method", $$"""{"method":"calc.add","description":{{AddDescription}}}"""), "true");
        await using var plain = await server.ConnectAsync();
        await plain.RegisterAsync("calc2");
        await plain.ProvideAsync("calc.add");
        await plain.ProvideAsync("bare");

        await using var caller = await server.ConnectAsync();
        var document = (await caller.CallAsync("rpc.discover")).GetProperty("result");

        Assert.Equal("1.3.2", document.GetProperty("openrpc").GetString());
        Assert.False(string.IsNullOrEmpty(document.GetProperty("info").GetProperty("title").GetString()));
        Assert.False(string.IsNullOrEmpty(document.GetProperty("info").GetProperty("version").GetString()));
        var methods = document.GetProperty("methods").EnumerateArray().ToDictionary(m => m.GetProperty("name").GetString()!);
        foreach (var own in new[] { "register_client", "authenticate", "register_method", "unregister_method", "subscribe", "unsubscribe", "list_methods", "list_clients", "keepAlive", "get_server_stats", "rpc.discover", "$/cancelRequest" })
        {
            Assert.True(methods.ContainsKey(own), own);
            Assert.Equal(JsonValueKind.Array, methods[own].GetProperty("params").ValueKind);
        }

        Assert.Equal("Adds them all.", methods["sum"].GetProperty("summary").GetString());
        Assert.Equal("""{"type":"array","items":{"type":"integer"}}""", methods["sum"].GetProperty("params")[0].GetProperty("schema").GetRawText());
        Assert.Equal("""{"type":"integer"}""", methods["sum"].GetProperty("result").GetProperty("schema").GetRawText());

        var add = methods["calc.add"];
        Assert.Equal("Adds two numbers.", add.GetProperty("summary").GetString());
        Assert.Equal("by-position", add.GetProperty("paramStructure").GetString());
        Assert.Equal(["a", "b"], add.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        Assert.Equal("sum", add.GetProperty("result").GetProperty("name").GetString());
        var providers = add.GetProperty("x-providers").EnumerateArray().Select(p => p.GetProperty("client").GetString()).Order();
        Assert.Equal(["calc1", "calc2"], providers);

        var bare = methods["bare"];
        Assert.Equal(0, bare.GetProperty("params").GetArrayLength());
        Assert.False(bare.TryGetProperty("summary", out _));
        Assert.Equal("calc2", bare.GetProperty("x-providers")[0].GetProperty("client").GetString());
    }

    [Fact]
    public async Task Discover_DescriptionFollowsRegistrations_ReplacedAndGoneWithTheProvider()
    {
        await using var server = await RouterServer.StartAsync();
        var provider = await server.ConnectAsync();
        await provider.RegisterAsync("p");
        Answer.IsResult(await provider.CallAsync("register_method", """["m", false, {"summary":"first","params":[]}]"""), "true");
        await using var caller = await server.ConnectAsync();
        Assert.Equal("first", (await MethodAsync(caller, "m"))!.Value.GetProperty("summary").GetString());

        Answer.IsResult(await provider.CallAsync("register_method", """{"method":"m","description":{"summary":"second","params":[]}}"""), "true");
        Assert.Equal("second", (await MethodAsync(caller, "m"))!.Value.GetProperty("summary").GetString());

        Answer.IsResult(await provider.CallAsync("unregister_method", """{"method":"m"}"""), "true");
        Assert.Null(await MethodAsync(caller, "m"));

        await provider.ProvideAsync("m");
        Assert.False((await MethodAsync(caller, "m"))!.Value.TryGetProperty("summary", out _), "the old description is gone");
        await provider.DisposeAsync();
        await Eventually.TrueAsync(async ValueTask<bool> () => await MethodAsync(caller, "m") is null, "m is gone with its provider", TimeSpan.FromSeconds(10));
    }

    [Theory]
    [InlineData("\"text\"", "must be an object")]
    [InlineData("""{"params":{}}""", "params")]
    [InlineData("""{"params":[{"name":"a"}]}""", "content descriptor")]
    [InlineData("""{"result":{"schema":{}}}""", "result")]
    [InlineData("""{"summary":1}""", "summary")]
    [InlineData("""{"paramStructure":"sideways"}""", "paramStructure")]
    public async Task RegisterMethod_BadDescription_InvalidParamsAndNotRegistered(string description, string detail)
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectAsync();
        await provider.RegisterAsync("p");

        var answer = await provider.CallAsync("register_method", $$"""{"method":"m","description":{{description}}}""");
        Answer.IsError(answer, -32602);
        Assert.Contains(detail, answer.GetProperty("error").GetProperty("data").GetString());
        Assert.Null(await MethodAsync(provider, "m"));
    }

    [Fact]
    public async Task RegisterMethod_DescriptionOver32KiB_InvalidParams()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectAsync();
        await provider.RegisterAsync("p");
        var big = new string('x', 33 * 1024);

        var answer = await provider.CallAsync("register_method", """{"method":"m","description":{"summary":"X"}}""".Replace("X", big));
        Answer.IsError(answer, -32602);
        Assert.Contains("32768 bytes", answer.GetProperty("error").GetProperty("data").GetString());
    }

    [Fact]
    public async Task Discover_AsNotification_IsNotAnswered()
    {
        await using var server = await RouterServer.StartAsync();
        await using var client = await server.ConnectAsync();
        await client.SendAsync(LineClient.Notification("rpc.discover"));
        Answer.IsResult(await client.CallAsync("keepAlive"), "true");
    }

    [Fact]
    public async Task RegisterMethod_RpcDiscover_RefusedAsReserved()
    {
        await using var server = await RouterServer.StartAsync();
        await using var provider = await server.ConnectAsync();
        await provider.RegisterAsync("p");
        Answer.IsError(await provider.CallAsync("register_method", """{"method":"rpc.discover"}"""), RouterErrorCodes.MethodReserved);
    }

    [Fact]
    public async Task Discover_UnderSecurity_NeedsAnIdentity_AndListsOnlyWhatItMayCall()
    {
        await using var server = await SecurityKit.StartAsync(SecurityKit.Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await beta.ProvideAsync("beta.secret");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await using var stranger = await server.ConnectAsync();

        SecurityKit.IsRefusal(await stranger.CallAsync("rpc.discover"), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "rpc.discover", identity: null);
        var names = (await alpha.CallAsync("rpc.discover")).GetProperty("result").GetProperty("methods").EnumerateArray()
            .Select(m => m.GetProperty("name").GetString()).ToArray();
        Assert.Contains("beta.echo", names);
        Assert.DoesNotContain("beta.secret", names);
        Assert.Contains("register_method", names);
    }

    internal static async Task<JsonElement?> MethodAsync(LineClient client, string name)
    {
        var document = (await client.CallAsync("rpc.discover")).GetProperty("result");
        foreach (var method in document.GetProperty("methods").EnumerateArray())
        {
            if (method.GetProperty("name").GetString() == name)
            {
                return method;
            }
        }

        return null;
    }
}
