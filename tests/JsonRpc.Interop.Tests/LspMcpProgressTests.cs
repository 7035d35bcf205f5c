using System.Text.Json;
using JsonRpc.Interop.Tests.Infrastructure;
using JsonRpc.Testing;

namespace JsonRpc.Interop.Tests;

/// <summary>
/// LSP's <c>$/progress</c> (for <c>workDoneToken</c> and <c>partialResultToken</c>) and MCP's
/// <c>notifications/progress</c> (for <c>params._meta.progressToken</c>) through a real router, byte for byte as the
/// peers wrote them: to the caller of that call only, before its answer, and never after it or to anyone else.
/// </summary>
public sealed class LspMcpProgressTests
{
    private const string Begin = """{"jsonrpc":"2.0","method":"$/progress","params":{"token":"wd-1","value":{"kind":"begin","title":"Finding references","percentage":0}}}""";
    private const string Partial = """{"jsonrpc":"2.0","method":"$/progress","params":{"token":7,"value":[{"uri":"file:///b.cs","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}}}]}}""";
    private const string ReferencesCall = """{"jsonrpc":"2.0","id":"a1","method":"textDocument/references","params":{"textDocument":{"uri":"file:///a.cs"},"position":{"line":3,"character":4},"context":{"includeDeclaration":true},"workDoneToken":"wd-1","partialResultToken":7}}""";

    [Fact]
    public async Task LspProgress_WorkDoneAndPartialResult_ReachOnlyTheCaller_Unchanged_BeforeTheAnswer()
    {
        await using var router = await RouterHost.StartAsync();
        await using var server = await RawPeer.ConnectRegisteredAsync(router.Port, "lsp", "textDocument/references");
        await using var editor = await RawPeer.ConnectRegisteredAsync(router.Port, "editor");
        await using var bystander = await RawPeer.ConnectRegisteredAsync(router.Port, "bystander");

        await editor.SendAsync(ReferencesCall);
        var (call, routerId) = await server.ReadCallAsync("textDocument/references");
        Assert.Equal("wd-1", call.GetProperty("params").GetProperty("workDoneToken").GetString());
        await server.SendAsync(Begin);
        await server.SendAsync(Partial);
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{routerId}},"result":[]}""");

        Assert.Equal(Begin, await editor.ReadLineAsync());
        Assert.Equal(Partial, await editor.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","id":"a1","result":[]}""", await editor.ReadLineAsync());

        // Anything queued for the bystander would come before the answer to its own call.
        await bystander.CallAsync("list_methods", "{}");
    }

    [Fact]
    public async Task LspProgress_AfterTheAnswer_TheTokenIsForgotten()
    {
        await using var router = await RouterHost.StartAsync();
        await using var server = await RawPeer.ConnectRegisteredAsync(router.Port, "lsp", "textDocument/references");
        await using var editor = await RawPeer.ConnectRegisteredAsync(router.Port, "editor");

        await editor.SendAsync(ReferencesCall);
        var (_, routerId) = await server.ReadCallAsync("textDocument/references");
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{routerId}},"result":[]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"a1","result":[]}""", await editor.ReadLineAsync());

        // A late report, then the answer to a second call (without tokens): the report must not come first.
        await editor.SendAsync("""{"jsonrpc":"2.0","id":"a2","method":"textDocument/references","params":{"textDocument":{"uri":"file:///a.cs"},"position":{"line":0,"character":0}}}""");
        var (_, secondId) = await server.ReadCallAsync("textDocument/references");
        await server.SendAsync(Begin);
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{secondId}},"result":null}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":"a2","result":null}""", await editor.ReadLineAsync());
    }

    [Fact]
    public async Task LspProgress_TwoCallersWithOneToken_NeverCrossOver()
    {
        await using var router = await RouterHost.StartAsync();
        await using var server = await RawPeer.ConnectRegisteredAsync(router.Port, "lsp", "workspace/symbol");
        await using var first = await RawPeer.ConnectRegisteredAsync(router.Port, "first");
        await using var second = await RawPeer.ConnectRegisteredAsync(router.Port, "second");

        await first.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"workspace/symbol","params":{"query":"a","workDoneToken":"shared"}}""");
        var (_, firstId) = await server.ReadCallAsync("workspace/symbol");
        await second.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"workspace/symbol","params":{"query":"b","workDoneToken":"shared"}}""");
        var (_, secondId) = await server.ReadCallAsync("workspace/symbol");

        // Both calls carry "shared": whose report this is cannot be told, so nobody gets it.
        await server.SendAsync("""{"jsonrpc":"2.0","method":"$/progress","params":{"token":"shared","value":{"kind":"report","message":"ambiguous"}}}""");
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{secondId}},"result":[]}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":[]}""", await second.ReadLineAsync());

        // Now only the first caller's call carries it.
        const string Mine = """{"jsonrpc":"2.0","method":"$/progress","params":{"token":"shared","value":{"kind":"report","message":"first's"}}}""";
        await server.SendAsync(Mine);
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{firstId}},"result":[]}""");
        Assert.Equal(Mine, await first.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":[]}""", await first.ReadLineAsync());
        await second.CallAsync("list_methods", "{}");
    }

    [Fact]
    public async Task LspProgress_ACallerThatLeft_HoldsItsTokenNoMore()
    {
        await using var router = await RouterHost.StartAsync();
        await using var server = await RawPeer.ConnectRegisteredAsync(router.Port, "lsp", "workspace/symbol");
        await using var second = await RawPeer.ConnectRegisteredAsync(router.Port, "second");
        await using (var first = await RawPeer.ConnectRegisteredAsync(router.Port, "first"))
        {
            await first.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"workspace/symbol","params":{"query":"a","workDoneToken":"t"}}""");
            await server.ReadCallAsync("workspace/symbol");
        }

        // The provider still holds the first caller's call (it has not answered the cancellation yet).
        Assert.Contains("\"$/cancelRequest\"", await server.ReadLineAsync());
        await Eventually.TrueAsync(() => router.Router.GetStats().Connections == 2, "the router saw the first caller leave");
        await second.SendAsync("""{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"b","workDoneToken":"t"}}""");
        var (_, secondId) = await server.ReadCallAsync("workspace/symbol");
        const string Report = """{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"report","percentage":50}}}""";
        await server.SendAsync(Report);
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{secondId}},"result":[]}""");

        Assert.Equal(Report, await second.ReadLineAsync());
        Assert.Equal("""{"jsonrpc":"2.0","id":2,"result":[]}""", await second.ReadLineAsync());
    }

    [Theory]
    [InlineData("\"job-1\"")]
    [InlineData("42")]
    public async Task McpProgress_ReachesOnlyTheCaller_Unchanged_BeforeTheAnswer(string token)
    {
        await using var router = await RouterHost.StartAsync();
        await using var server = await RawPeer.ConnectRegisteredAsync(router.Port, "mcp", "tools/call");
        await using var client = await RawPeer.ConnectRegisteredAsync(router.Port, "client");
        await using var bystander = await RawPeer.ConnectRegisteredAsync(router.Port, "bystander");

        await client.SendAsync("""{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"index","arguments":{"path":"/src"},"_meta":{"progressToken":""" + token + "}}}");
        var (_, routerId) = await server.ReadCallAsync("tools/call");
        var reports = Enumerable.Range(1, 3)
            .Select(i => $$$"""{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":{{{token}}},"progress":{{{i}}},"total":3,"message":"step {{{i}}}"}}""")
            .ToArray();
        foreach (var report in reports)
        {
            await server.SendAsync(report);
        }

        const string Result = """{"content":[{"type":"text","text":"done"}]}""";
        await server.SendAsync($$"""{"jsonrpc":"2.0","id":{{routerId}},"result":{{Result}}}""");

        foreach (var report in reports)
        {
            Assert.Equal(report, await client.ReadLineAsync());
        }

        Assert.Equal($$"""{"jsonrpc":"2.0","id":9,"result":{{Result}}}""", await client.ReadLineAsync());
        await bystander.CallAsync("list_methods", "{}");
    }

    [Fact]
    public async Task Progress_ProviderLeaves_ItsTokensAreForgotten_AndStrayProgressIsIgnored()
    {
        await using var router = await RouterHost.StartAsync();
        await using var client = await RawPeer.ConnectRegisteredAsync(router.Port, "client");
        await using (var server = await RawPeer.ConnectRegisteredAsync(router.Port, "mcp", "tools/call"))
        {
            await client.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"t"}}}""");
            await server.ReadCallAsync("tools/call");

            // Progress without a token, or with one nobody's call carries: dropped, the connection goes on.
            await server.SendAsync("""{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}""");
            await server.SendAsync("""{"jsonrpc":"2.0","method":"$/progress","params":["nobody's",1]}""");
        }

        using var answer = JsonDocument.Parse(await client.ReadLineAsync());
        Assert.Equal(Server.RouterErrorCodes.ProviderDisconnected, answer.RootElement.GetProperty("error").GetProperty("code").GetInt32());
    }

    [Fact]
    public async Task EnumeratorCalls_UnknownOrMalformedTokens_AnsweredWithErrors()
    {
        await using var router = await RouterHost.StartAsync();
        await using var client = await RawPeer.ConnectRegisteredAsync(router.Port, "client");

        foreach (var @params in new[] { "[12345]", """{"token":12345}""", "[]", """{"token":"x"}""", "null" })
        {
            var sent = $$"""{"jsonrpc":"2.0","id":5,"method":"$/enumerator/next","params":{{@params}}}""";
            if (@params == "null")
            {
                sent = """{"jsonrpc":"2.0","id":5,"method":"$/enumerator/next"}""";
            }

            await client.SendAsync(sent);
            using var answer = JsonDocument.Parse(await client.ReadLineAsync());
            Assert.Equal(5, answer.RootElement.GetProperty("id").GetInt32());
            Assert.Equal(-32001, answer.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        }

        // An abort of nothing is a notification: no answer; the next call is answered first.
        await client.SendAsync("""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[12345]}""");
        await client.CallAsync("list_methods", "{}");
    }
}
