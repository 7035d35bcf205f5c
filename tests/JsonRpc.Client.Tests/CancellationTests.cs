using System.Text.Json;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

/// <summary>
/// <c>$/cancelRequest</c> both ways against a plain peer: the client sends it when a call's token is cancelled, and
/// the methods it serves see the peer's.
/// </summary>
public sealed class CancellationTests : IAsyncLifetime
{
    private readonly TestServer _server = new TestServer().Install();
    private JsonRpcClient _client = null!;

    public async Task InitializeAsync()
    {
        _server.Unanswered["hang"] = true;
        _client = await JsonRpcClient.ConnectAsync("127.0.0.1", _server.Port).Within();
        await _server.WaitForConnectionsAsync(1, Bounded.Timeout);
    }

    public async Task DisposeAsync()
    {
        await _client.DisposeAsync();
        await _server.DisposeAsync();
    }

    private JsonElement[] ReceivedWithMethod(string method)
        => [.. _server.Received.Select(m => JsonDocument.Parse(m).RootElement)
            .SelectMany(m => m.ValueKind == JsonValueKind.Array ? m.EnumerateArray().ToArray() : [m])
            .Where(m => m.ValueKind == JsonValueKind.Object && m.TryGetProperty("method", out var name) && name.GetString() == method)];

    private async Task<long> WaitForRequestIdAsync(string method, int count = 1)
    {
        await Eventually.TrueAsync(() => ReceivedWithMethod(method).Length >= count, $"the peer receives {method}");
        return ReceivedWithMethod(method)[count - 1].GetProperty("id").GetInt64();
    }

    [Fact]
    public async Task CallAsync_TokenCancelled_ThrowsAtOnceAndPeerGetsCancelRequestForThatId()
    {
        using var cts = new CancellationTokenSource();
        var call = _client.CallAsync("hang", default, cts.Token).AsTask();
        var id = await WaitForRequestIdAsync("hang");

        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.WaitAsync(TimeSpan.FromSeconds(15))); // a timeout would be a TimeoutException
        await Eventually.TrueAsync(() => ReceivedWithMethod("$/cancelRequest").Length == 1, "the peer receives $/cancelRequest");
        var cancel = ReceivedWithMethod("$/cancelRequest")[0];
        Assert.False(cancel.TryGetProperty("id", out _));
        Assert.Equal(id, cancel.GetProperty("params").GetProperty("id").GetInt64());

        // The late answer is dropped quietly and the client goes on.
        await _server.SendToAllAsync($$$"""{"jsonrpc":"2.0","id":{{{id}}},"error":{"code":-32800,"message":"Request cancelled"}}""");
        await Eventually.TrueAsync(() => _client.DroppedAnswers == 1, "the late answer is dropped");
        Assert.Equal(JsonRpcClientState.Connected, _client.State);
    }

    [Fact]
    public async Task CallAsync_TokenCancelledBeforehand_SendsNeitherCallNorCancel()
    {
        _server.Dispatcher.Add("ping", () => 1, TestJsonContext.Default.Int32);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _client.CallAsync("hang", default, new CancellationToken(true)).Within());
        Assert.Equal(1, await _client.CallAsync<int>("ping", default, TestJsonContext.Default.Int32).Within());
        Assert.Empty(ReceivedWithMethod("hang"));
        Assert.Empty(ReceivedWithMethod("$/cancelRequest"));
    }

    [Fact]
    public async Task CallBatchAsync_TokenCancelled_PeerGetsCancelRequestForEachCall()
    {
        using var cts = new CancellationTokenSource();
        var batch = _client.CallBatchAsync([JsonRpcBatchItem.Call("hang"), JsonRpcBatchItem.Notification("note"), JsonRpcBatchItem.Call("hang")], cts.Token);
        await Eventually.TrueAsync(() => ReceivedWithMethod("hang").Length == 2, "the peer receives the batch");
        var ids = ReceivedWithMethod("hang").Where(m => m.TryGetProperty("id", out _)).Select(m => m.GetProperty("id").GetInt64()).ToHashSet();

        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => batch.WaitAsync(TimeSpan.FromSeconds(15)));
        await Eventually.TrueAsync(() => ReceivedWithMethod("$/cancelRequest").Length == 2, "the peer receives two $/cancelRequest");
        Assert.Equal(ids, ReceivedWithMethod("$/cancelRequest").Select(m => m.GetProperty("params").GetProperty("id").GetInt64()).ToHashSet());
    }

    [Fact]
    public async Task AddMethod_PeerCancelsTheCall_HandlerTokenFiresAndAnswerIsRequestCancelled()
    {
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _client.AddMethod("slow", async (CancellationToken ct) =>
        {
            started.TrySetResult();
            await Task.Delay(TimeSpan.FromMinutes(1), ct);
            return 1;
        });
        _client.AddMethod("one", () => 1, TestJsonContext.Default.Int32);

        var answer = _server.CallClientAsync("slow", null);
        await started.Task.Within();

        // Someone else's id, an unknown id, and bad params change nothing.
        await _server.SendToAllAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s999"}}""");
        await _server.SendToAllAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}""");
        await _server.SendToAllAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":[1]}""");
        await _server.SendToAllAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest"}""");
        Assert.Contains("\"result\":1", await _server.CallClientAsync("one", null)); // read after them: they were handled
        Assert.False(answer.IsCompleted);

        await _server.SendToAllAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s1"}}""");
        var error = JsonDocument.Parse(await answer.Within()).RootElement;
        Assert.Equal("s1", error.GetProperty("id").GetString());
        Assert.Equal(JsonRpcErrorCodes.RequestCancelled, error.GetProperty("error").GetProperty("code").GetInt32());
    }

    [Fact]
    public async Task CancelRequestSentAsRequest_AnsweredInvalidRequest()
    {
        var answer = JsonDocument.Parse(await _server.CallClientAsync("$/cancelRequest", """{"id":1}""")).RootElement;
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, answer.GetProperty("error").GetProperty("code").GetInt32());
    }

    [Theory]
    [InlineData("$/cancelRequest")]
    [InlineData("$/custom")]
    public async Task ReservedNames_AddMethodAndSubscribe_Refused(string name)
    {
        Assert.Throws<ArgumentException>(() => _client.AddMethod(name, () => 1, TestJsonContext.Default.Int32));
        Assert.Throws<ArgumentException>(() => _client.AddMethod(name, (int x) => x));
        await Assert.ThrowsAsync<ArgumentException>(() => _client.SubscribeAsync(name, _ => { }));
        Assert.Empty(_client.Methods);
    }
}
