using System.Text.Json;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Server;

namespace JsonRpc.Client.Tests;

/// <summary>A JsonRpcClient's typed methods described to the router and found with <c>rpc.discover</c>.</summary>
public sealed class DiscoveryTests
{
    private static readonly TestJsonContext Ctx = TestJsonContext.Default;

    [Fact]
    public async Task RegisterAsync_TypedMethods_DiscoverShowsTheirSchemasAndSummary()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync();
        provider.AddMethod("add", "a", "b", (int a, int b) => a + b, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        provider.AddMethod("move", (Point p) => new Point(p.X + 1, p.Y), Ctx.Point, Ctx.Point);
        Assert.True(provider.DescribeMethod("add", "Adds two integers.", null));
        Assert.False(provider.DescribeMethod("missing", "x", null));
        await provider.RegisterAsync("calc").Within();

        await using var caller = await router.ConnectAsync();
        var methods = await MethodsAsync(caller);

        var add = methods["add"];
        Assert.Equal("Adds two integers.", add.GetProperty("summary").GetString());
        Assert.Equal("either", add.GetProperty("paramStructure").GetString());
        Assert.Equal(["a", "b"], add.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        Assert.Equal("""{"type":"integer"}""", add.GetProperty("result").GetProperty("schema").GetRawText());
        Assert.Equal("calc", add.GetProperty("x-providers")[0].GetProperty("client").GetString());

        var move = methods["move"];
        Assert.Equal("by-name", move.GetProperty("paramStructure").GetString());
        Assert.Equal(["x", "y"], move.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        var result = move.GetProperty("result").GetProperty("schema");
        Assert.Equal("object", result.GetProperty("type").GetString());
        Assert.Equal("""{"type":"integer"}""", result.GetProperty("properties").GetProperty("x").GetRawText());

        // Described after the announcement: announced again with the new text.
        Assert.True(provider.DescribeMethod("move", "Moves a point right.", "By one."));
        await Eventually.TrueAsync(async ValueTask<bool> () => (await MethodsAsync(caller))["move"].TryGetProperty("summary", out var s) && s.GetString() == "Moves a point right.",
            "the new summary reached the router", Bounded.Timeout);
    }

    private static async Task<Dictionary<string, JsonElement>> MethodsAsync(JsonRpcClient caller)
    {
        var document = await caller.CallAsync("rpc.discover", default(JsonRpc.Protocol.RawJson), Ctx.JsonElement).Within();
        return document.GetProperty("methods").EnumerateArray().ToDictionary(m => m.GetProperty("name").GetString()!);
    }
}
