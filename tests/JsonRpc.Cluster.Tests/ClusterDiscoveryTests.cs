using System.Text.Json;

namespace JsonRpc.Cluster.Tests;

/// <summary><c>rpc.discover</c> on one node lists the methods of every node, with the descriptions given there.</summary>
public sealed class ClusterDiscoveryTests(ITestOutputHelper output)
{
    [NatsFact]
    public async Task Discover_OnAnyNode_ListsEveryNodesProvidersWithTheirDescriptions()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var remote = await cluster.ConnectAsync(0);
        await remote.RegisterAsync("far");
        Answer.IsResult(await remote.CallAsync("register_method",
            """{"method":"geo.distance","description":{"summary":"Distance in metres.","params":[{"name":"from","schema":{"type":"string"}},{"name":"to","schema":{"type":"string"}}],"result":{"name":"metres","schema":{"type":"number"}}}}"""), "true");
        await using var local = await cluster.ConnectRegisteredAsync(1, "near", "geo.distance");
        await cluster.KnowsMethodAsync(1, "geo.distance");

        await using var caller = await cluster.ConnectAsync(1);
        JsonElement method = default;
        await Eventually.TrueAsync(async ValueTask<bool> () =>
        {
            method = (await MethodAsync(caller, "geo.distance")) ?? default;
            return method.ValueKind == JsonValueKind.Object && method.GetProperty("x-providers").GetArrayLength() == 2;
        }, "node 1 lists both providers", TimeSpan.FromSeconds(10));

        // This node's provider gave no description: the other node's is shown.
        Assert.Equal("Distance in metres.", method.GetProperty("summary").GetString());
        Assert.Equal(["from", "to"], method.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        var providers = method.GetProperty("x-providers").EnumerateArray().Select(p => $"{p.GetProperty("client").GetString()}@{p.GetProperty("node").GetString()}");
        Assert.Equal(["near@n1", "far@n0"], providers);

        // Its own methods are there too.
        Assert.NotNull(await MethodAsync(caller, "register_method"));
    }

    [NatsFact]
    public async Task RegisterMethodAgain_WithANewDescription_OtherNodeShowsIt()
    {
        await using var cluster = await ClusterNodes.StartAsync(2, output);
        await using var provider = await cluster.ConnectRegisteredAsync(0, "p", "m");
        await cluster.KnowsMethodAsync(1, "m");
        await using var caller = await cluster.ConnectAsync(1);

        Answer.IsResult(await provider.CallAsync("register_method", """{"method":"m","description":{"summary":"now described","params":[]}}"""), "true");
        await Eventually.TrueAsync(async ValueTask<bool> () =>
            (await MethodAsync(caller, "m")) is { } m && m.TryGetProperty("summary", out var summary) && summary.GetString() == "now described",
            "node 1 shows the new description", TimeSpan.FromSeconds(10));
    }

    private static async Task<JsonElement?> MethodAsync(LineClient client, string name)
    {
        var document = (await client.CallAsync("rpc.discover")).GetProperty("result");
        return document.GetProperty("methods").EnumerateArray().Where(m => m.GetProperty("name").GetString() == name).Cast<JsonElement?>().FirstOrDefault();
    }
}
