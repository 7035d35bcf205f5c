using JsonRpc.Protocol;
using Xunit.Abstractions;

namespace JsonRpc.Client.Tests;

/// <summary>
/// The client quick start of README.md and src/JsonRpc.Client/README.md, compiled and run against a real router: the
/// region below is the README's code block, and the first test fails when the two differ (other than the ports, which
/// a test reads back from the router it started on port 0).
/// </summary>
public sealed class ReadmeTests(ITestOutputHelper output)
{
    private const string RegionStart = "// --- README quick start ---";
    private const string RegionEnd = "// --- end ---";

    [Fact]
    public async Task QuickStart_AsDocumented_RunsAloneAgainstOneRouter()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        var printed = new StringWriter();
        var console = Console.Out;
        Console.SetOut(printed);
        try
        {
            // --- README quick start ---
            // Against the router above (dotnet run --project src/JsonRpc.Router -- --http_port 8081).
            // One client serves methods under a name …
            await using var math = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port);
            math.AddMethod("add", (int a, int b) => a + b);
            math.AddMethod("subtract", (int minuend, int subtrahend) => minuend - subtrahend);
            await math.RegisterAsync("math");

            // … another calls them through the router: positional params as an array, named params as an object.
            await using var client = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port);
            int sum = await client.CallAsync<int>("add", new object[] { 2, 3 });                       // 5
            int diff = await client.CallAsync<int>("subtract", new { minuend = 42, subtrahend = 23 }); // 19
            int sync = client.Call<int>("add", new object[] { 1, 1 });                                 // blocking, for scripts

            // A batch: one round trip, one result (or error) per item, in order.
            var results = await client.CallBatchAsync(
            [
                JsonRpcBatchItem.Call("add", RawJson.Parse("[20, 22]")),
                JsonRpcBatchItem.Call("subtract", RawJson.Parse("""{"minuend": 10, "subtrahend": 4}""")),
            ]);
            int answer = results[0].GetResult<int>(); // 42; results[1].GetResult<int>() is 6

            // Events: one client subscribes, another publishes (a publisher does not get its own events).
            var news = new TaskCompletionSource<string?>();
            await math.SubscribeAsync<string>("news", headline => news.TrySetResult(headline));
            await client.PublishAsync("news", "hello");
            Console.WriteLine($"{sum} {diff} {sync} {answer} {await news.Task}"); // 5 19 2 42 hello

            // The same client over a WebSocket (the router's /rpc endpoint), or a tcp:// URI:
            await using var web = await JsonRpcClient.ConnectAsync(new Uri($"ws://127.0.0.1:{router.HttpPort}/rpc"));
            // --- end ---

            Assert.Equal(6, results[1].GetResult<int>());
            Assert.Equal(42, await web.CallAsync<int>("add", new object[] { 40, 2 }));
        }
        finally
        {
            Console.SetOut(console);
        }

        output.WriteLine(printed.ToString());
        Assert.Equal("5 19 2 42 hello", printed.ToString().Trim());
    }

    [Theory]
    [InlineData("README.md", "## Quick start: the client")]
    [InlineData("src/JsonRpc.Client/README.md", "## Quick start")]
    public void QuickStart_ReadmeBlock_IsTheCodeTheTestRuns(string readme, string heading)
    {
        var text = File.ReadAllText(Path.Combine(RepositoryLayout.Root, readme));
        var start = text.IndexOf("```csharp", text.IndexOf(heading, StringComparison.Ordinal), StringComparison.Ordinal);
        var end = text.IndexOf("```", start + 9, StringComparison.Ordinal);
        var block = text[(start + 9)..end]
            .Replace("\"127.0.0.1\", 8080", "\"127.0.0.1\", router.Port", StringComparison.Ordinal)
            .Replace("new Uri(\"ws://127.0.0.1:8081/rpc\")", "new Uri($\"ws://127.0.0.1:{router.HttpPort}/rpc\")", StringComparison.Ordinal);

        // The first comment line says where the router comes from, in each README's own words.
        Assert.Equal(Lines(Region()).Skip(1), Lines(block).Where(l => !l.StartsWith("using ", StringComparison.Ordinal)).Skip(1));
    }

    private static string Region()
    {
        // From the repository, not [CallerFilePath]: CI builds map source paths to /_/ (deterministic builds).
        var path = Path.Combine(RepositoryLayout.Root, "tests", "JsonRpc.Client.Tests", "ReadmeTests.cs");
        // The markers as comment lines (a marker followed by its line's end), not the constants that spell them.
        var source = File.ReadAllText(path).ReplaceLineEndings("\n");
        var start = source.IndexOf(RegionStart + "\n", StringComparison.Ordinal) + RegionStart.Length;
        return source[start..source.IndexOf(RegionEnd + "\n", start, StringComparison.Ordinal)];
    }

    private static IEnumerable<string> Lines(string code)
        => code.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0);
}
