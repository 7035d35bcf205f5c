using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

public sealed class CallTests : IAsyncLifetime
{
    private readonly TestServer _server = new TestServer().Install();
    private JsonRpcClient _client = null!;

    public async Task InitializeAsync()
        => _client = await JsonRpcClient.ConnectAsync("127.0.0.1", _server.Port, new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(5) }).Within();

    public async Task DisposeAsync()
    {
        await _client.DisposeAsync();
        await _server.DisposeAsync();
    }

    [Fact]
    public async Task CallAsync_TypedParamsAndResult_ReturnsResult()
    {
        var ctx = TestJsonContext.Default;
        var sum = await _client.CallAsync("add", new AddParams(2, 3), ctx.AddParams, ctx.Int32).Within();
        Assert.Equal(5, sum);
        Assert.Contains(_server.Received, m => m.Contains("\"params\":{\"a\":2,\"b\":3}"));
    }

    [Fact]
    public async Task CallAsync_ContinuationBlocksOnAnotherCall_SecondCallIsSentAndAnswered()
    {
        // The client holds writes back while an answer's continuation runs (its next call then leaves with the others
        // of that read). A continuation that blocks its thread until another call is answered must not hold that
        // call's request back until its timeout (5 s here): a deadlock in all but name.
        var ctx = TestJsonContext.Default;
        await Task.Run(async () =>
        {
            for (var i = 0; i < 20; i++)
            {
                var first = await _client.CallAsync("add", new AddParams(i, 1), ctx.AddParams, ctx.Int32).ConfigureAwait(false);
                var second = _client.CallAsync("add", new AddParams(first, 1), ctx.AddParams, ctx.Int32).AsTask();
                Assert.True(second.Wait(TimeSpan.FromSeconds(4)), $"round {i}: the blocked continuation's call was not answered");
                Assert.Equal(i + 2, second.Result);
            }
        }).Within();
    }

    [Fact]
    public async Task CallAsync_ManyContinuationsBlockOnOtherCalls_EverySecondCallIsAnswered()
    {
        // Answers read together resume their callers together, and their writes are held until the last of them has
        // run; continuations that all block on a further call each must still see it sent (by the 5 ms watch).
        var ctx = TestJsonContext.Default;
        for (var round = 0; round < 10; round++)
        {
            var callers = Enumerable.Range(0, 8).Select(i => Task.Run(async () =>
            {
                var first = await _client.CallAsync("add", new AddParams(i, round), ctx.AddParams, ctx.Int32).ConfigureAwait(false);
                var second = _client.CallAsync("add", new AddParams(first, 1), ctx.AddParams, ctx.Int32).AsTask();
                Assert.True(second.Wait(TimeSpan.FromSeconds(4)), $"round {round}, caller {i}: the blocked continuation's call was not answered");
                return second.Result;
            })).ToArray();
            var results = await Task.WhenAll(callers).Within();
            Assert.Equal(Enumerable.Range(0, 8).Select(i => i + round + 1), results);
        }
    }

    [Fact]
    public async Task CallAsync_ContinuationBlocksUntilALaterAnswerReadWithItRuns_BothComplete()
    {
        // Answers read together resume their callers one after another on one pool thread. A continuation that blocks
        // that thread until the caller of a later answer of the same read has run must not wait for ever: the watch
        // hands the rest to the pool within a few milliseconds. Both answers go in one write, the blocking one first.
        _server.Unanswered["held"] = true;
        using var secondResumed = new ManualResetEventSlim();
        var first = Task.Run(async () =>
        {
            var result = await _client.CallAsync<int>("held", new[] { 1 }).ConfigureAwait(false);
            return (result, released: secondResumed.Wait(TimeSpan.FromSeconds(20)));
        });
        var second = Task.Run(async () =>
        {
            var result = await _client.CallAsync<int>("held", new[] { 2 }).ConfigureAwait(false);
            secondResumed.Set();
            return result;
        });
        await Eventually.TrueAsync(() => _server.Received.Count(m => m.Contains("\"held\"")) == 2, "both calls sent");
        var ids = _server.Received.Where(m => m.Contains("\"held\""))
            .OrderBy(m => m.Contains("[1]") ? 0 : 1)
            .Select(m => JsonDocument.Parse(m).RootElement.GetProperty("id").GetRawText())
            .ToArray();

        await _server.SendTogetherToAllAsync([$"{{\"jsonrpc\":\"2.0\",\"id\":{ids[0]},\"result\":10}}", $"{{\"jsonrpc\":\"2.0\",\"id\":{ids[1]},\"result\":20}}"]);

        Assert.Equal((10, true), await first.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(20, await second.Within());
    }

    [Fact]
    public async Task CallAsync_PositionalObjectArray_BindsByPosition()
    {
        Assert.Equal(7, await _client.CallAsync<int>("add", new object?[] { 3, 4 }).Within());
    }

    [Fact]
    public async Task CallAsync_TypedPositionalArguments_SentAsArray()
    {
        var ctx = TestJsonContext.Default;
        Assert.Equal(7, await _client.CallAsync("add", 3, 4, ctx.Int32, ctx.Int32, ctx.Int32).Within());
        var echoed = await _client.CallAsync("echo", "a", 1, new Point(2, 3), ctx.String, ctx.Int32, ctx.Point, ctx.JsonElement).Within();
        Assert.Contains(_server.Received, m => m.Contains("\"params\":[\"a\",1,{\"x\":2,\"y\":3}]"));
        Assert.Equal(3, echoed.GetArrayLength());
    }

    [Fact]
    public async Task CallAsync_NamedAnonymousObject_BindsByName()
    {
        Assert.Equal(11, await _client.CallAsync<int>("add", new { a = 5, b = 6 }).Within());
        Assert.Equal(9, await _client.CallAsync<int>("add", new Dictionary<string, int> { ["b"] = 4, ["a"] = 5 }).Within());
    }

    [Fact]
    public async Task CallAsync_RawParams_ReturnsRawResultExactly()
    {
        var result = await _client.CallAsync("echo", RawJson.Parse("{\"x\": [1, 2.50, \"é\"]}")).Within();
        Assert.Equal("{\"x\": [1, 2.50, \"é\"]}", result.ToString());
    }

    [Fact]
    public async Task CallAsync_LargeRawResults_EachKeepsItsOwnBytes()
    {
        // Results over 4 KB are copied once into an array the RawJson then owns: the next call on the same slot must
        // not write into the array an earlier result still uses.
        var first = "{\"s\":\"" + new string('a', 100_000) + "\"}";
        var second = "{\"s\":\"" + new string('b', 120_000) + "\",\"n\":[1,2,3]}";
        var a = await _client.CallAsync("echo", RawJson.Parse(first)).Within();
        var b = await _client.CallAsync("echo", RawJson.Parse(second)).Within();
        var c = await _client.CallAsync("echo", RawJson.Parse("[1]")).Within();
        Assert.Equal(first, a.ToString());
        Assert.Equal(second, b.ToString());
        Assert.Equal("[1]", c.ToString());
        Assert.Equal(JsonValueKind.Object, a.ValueKind);
    }

    [Fact]
    public async Task CallAsync_BufferWriter_AppendsEachResultExactly()
    {
        // Small results come from the call slot's own buffer, large ones from a pooled one the slot gives back: each
        // call must append its own bytes, after what the writer already holds, and nothing of an earlier result.
        var writer = new ArrayBufferWriter<byte>();
        writer.Write("prefix:"u8);
        var small = "{\"x\": [1, 2.50, \"é\"]}";
        Assert.Equal(Encoding.UTF8.GetByteCount(small), await _client.CallAsync("echo", RawJson.Parse(small), writer).Within());
        Assert.Equal("prefix:" + small, Encoding.UTF8.GetString(writer.WrittenSpan));

        var first = "{\"s\":\"" + new string('a', 120_000) + "\",\"n\":[1,2,3]}";
        var second = "{\"s\":\"" + new string('b', 100_000) + "\"}";
        foreach (var expected in new[] { first, second, "[1]", first })
        {
            writer.ResetWrittenCount();
            var written = await _client.CallAsync("echo", RawJson.Parse(expected), writer).Within();
            Assert.Equal(expected.Length, written);
            Assert.Equal(expected, Encoding.UTF8.GetString(writer.WrittenSpan));
        }

        // A writer of segments (a PipeWriter) gets a large result in pieces, all of it, in order.
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0, minimumSegmentSize: 4096));
        var piped = await _client.CallAsync("echo", RawJson.Parse(first), pipe.Writer).Within();
        await pipe.Writer.CompleteAsync();
        var read = await pipe.Reader.ReadAtLeastAsync(piped + 1).Within();
        Assert.True(read.IsCompleted);
        Assert.Equal(first, Encoding.UTF8.GetString(read.Buffer.ToArray()));
        await pipe.Reader.CompleteAsync();
    }

    [Fact]
    public async Task CallAsync_BufferWriter_RemoteErrorWritesNothing()
    {
        var writer = new ArrayBufferWriter<byte>();
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => _client.CallAsync("fail", default, writer).Within());
        Assert.Equal(42, ex.Code);
        Assert.Equal(0, writer.WrittenCount);
        Assert.Throws<ArgumentNullException>(() => _client.CallAsync("echo", RawJson.Parse("[1]"), (IBufferWriter<byte>)null!));
    }

    [Fact]
    public async Task CallAsync_BufferWriter_CanceledCallWritesNothing()
    {
        // A call canceled before its answer leaves the writer as it was, and the caller may use it again at once.
        _server.Unanswered["hang"] = true;
        var writer = new ArrayBufferWriter<byte>();
        using var cts = new CancellationTokenSource();
        var call = _client.CallAsync("hang", RawJson.Parse("[\"late\"]"), writer, cts.Token).AsTask();
        await Eventually.TrueAsync(() => _server.Received.Any(m => m.Contains("\"hang\"")), "the server received the call");
        cts.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.Within());
        Assert.Equal(0, writer.WrittenCount);
        Assert.Equal(3, await _client.CallAsync("echo", RawJson.Parse("[1]"), writer).Within());
        Assert.Equal("[1]", Encoding.UTF8.GetString(writer.WrittenSpan));
    }

    [Fact]
    public async Task CallAsync_RawParamsTypedResult_Deserializes()
    {
        var point = await _client.CallAsync("echo", RawJson.Parse("{\"x\":1,\"y\":2}"), TestJsonContext.Default.Point).Within();
        Assert.Equal(new Point(1, 2), point);
    }

    [Fact]
    public async Task CallAsync_ScalarParams_SentAsOnePositionalArgument()
    {
        var result = await _client.CallAsync("echo", 5, TestJsonContext.Default.Int32, TestJsonContext.Default.Int32Array).Within();
        Assert.Equal([5], result!);
        var text = await _client.CallAsync<string[]>("echo", "hi").Within();
        Assert.Equal(["hi"], text!);
    }

    [Fact]
    public async Task CallAsync_NoParams_OmitsParamsMember()
    {
        var result = await _client.CallAsync("echo").Within();
        Assert.Equal("null", result.ToString());
        Assert.Contains(_server.Received, m => m.Contains("\"method\":\"echo\"") && !m.Contains("params"));
    }

    [Fact]
    public void Call_Blocking_ReturnsResult()
    {
        var ctx = TestJsonContext.Default;
        Assert.Equal(3, _client.Call("add", new AddParams(1, 2), ctx.AddParams, ctx.Int32));
        Assert.Equal(10, _client.Call<int>("add", new object[] { 4, 6 }));
        Assert.Equal("[1]", _client.Call("echo", RawJson.Parse("[1]")).ToString());
        var writer = new ArrayBufferWriter<byte>();
        Assert.Equal(3, _client.Call("echo", RawJson.Parse("[2]"), writer));
        Assert.Equal("[2]", Encoding.UTF8.GetString(writer.WrittenSpan));
    }

    [Fact]
    public async Task CallAsync_RemoteError_ThrowsWithCodeMessageAndData()
    {
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => _client.CallAsync("fail").Within());
        Assert.Equal(42, ex.Code);
        Assert.Equal("boom", ex.Message);
        Assert.Equal("{\"why\":\"test\"}", ex.ErrorData.ToString());
        Assert.Equal("fail", ex.Method);
        Assert.Equal(JsonRpcClientState.Connected, _client.State);
        Assert.Equal(3, await _client.CallAsync<int>("add", new[] { 1, 2 }).Within());
    }

    [Fact]
    public async Task CallAsync_UnknownMethod_ThrowsMethodNotFound()
    {
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => _client.CallAsync("nope").Within());
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ex.Code);
    }

    [Fact]
    public async Task CallAsync_ParamsThatDoNotBind_ThrowsInvalidParams()
    {
        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => _client.CallAsync("add", RawJson.Parse("[\"x\"]")).Within());
        Assert.Equal(JsonRpcErrorCodes.InvalidParams, ex.Code);
    }

    [Fact]
    public async Task CallAsync_ResultOfWrongType_ThrowsJsonException()
    {
        var error = await Assert.ThrowsAsync<JsonException>(() => _client.CallAsync("echo", RawJson.Parse("{\"x\":1}"), TestJsonContext.Default.Int32).Within());
        Assert.Contains("'echo'", error.Message); // names the call, not only the type
        Assert.Contains("Int32", error.Message);
    }

    [Fact]
    public async Task CallAsync_ParamsSerializerThrows_FailsThatCallOnly()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => _client.CallAsync<int>("echo", new Unserializable()).Within());
        Assert.Equal("no", error.Message); // the serializer's own failure, not a timeout
        Assert.Equal(2, await _client.CallAsync<int>("add", new[] { 1, 1 }).Within());
    }

    [Fact]
    public async Task NotifyAsync_SendsNotificationWithoutId()
    {
        await _client.NotifyAsync("log", RawJson.Parse("{\"text\":\"hi\"}")).Within();
        await _client.NotifyAsync("log2", new { n = 1 }).Within();
        await Eventually.TrueAsync(() => _server.Received.Any(m => m.Contains("log2")), "notifications received");
        var first = _server.Received.Single(m => m.Contains("\"log\""));
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"method\":\"log\",\"params\":{\"text\":\"hi\"}}", first);
    }

    [Fact]
    public async Task CallBatchAsync_CallsAndNotification_ResultsInItemOrder()
    {
        var results = await _client.CallBatchAsync(
        [
            JsonRpcBatchItem.Call("add", RawJson.Parse("[1,2]")),
            JsonRpcBatchItem.Notification("log", RawJson.Parse("[\"x\"]")),
            JsonRpcBatchItem.Call("fail"),
            JsonRpcBatchItem.Call("echo", RawJson.Parse("{\"k\":true}")),
        ]).Within();

        Assert.Equal(4, results.Length);
        Assert.Equal(3, results[0].GetResult(TestJsonContext.Default.Int32));
        Assert.True(results[1].IsNotification);
        Assert.False(results[2].IsSuccess);
        Assert.Equal(42, results[2].Error!.Code);
        Assert.Throws<JsonRpcRemoteException>(() => results[2].GetResult());
        Assert.Equal("{\"k\":true}", results[3].Result.ToString());
        Assert.Contains(_server.Received, m => m.StartsWith('['));
    }

    [Fact]
    public async Task CallBatchAsync_LargeResults_EachKeepsItsOwnBytes_AcrossBatches()
    {
        // Results over 4 KB are read once into arrays the results own (as for CallAsync): a second batch on the same
        // slots must not write into what the first one's results still use.
        var first = "{\"s\":\"" + new string('a', 50_000) + "\"}";
        var second = "[\"" + new string('b', 70_000) + "\"]";
        var one = await _client.CallBatchAsync(
        [
            JsonRpcBatchItem.Call("echo", RawJson.Parse(first)),
            JsonRpcBatchItem.Call("echo", RawJson.Parse(second)),
            JsonRpcBatchItem.Call("echo", RawJson.Parse("[1]")),
        ]).Within();
        var two = await _client.CallBatchAsync(
        [
            JsonRpcBatchItem.Call("echo", RawJson.Parse(second)),
            JsonRpcBatchItem.Call("echo", RawJson.Parse(first)),
        ]).Within();

        Assert.Equal([first, second, "[1]"], one.Select(r => r.Result.ToString()));
        Assert.Equal([second, first], two.Select(r => r.Result.ToString()));
        Assert.Equal(JsonValueKind.Array, one[1].Result.ValueKind);
    }

    private sealed record Flag(bool K);

    [Fact]
    public async Task CallBatchAsync_GetResultOfT_WithTheClientsSerializerOptions_AsCallAsyncOfT()
    {
        var results = await _client.CallBatchAsync(
        [
            JsonRpcBatchItem.Call("add", RawJson.Parse("[20,22]")),
            JsonRpcBatchItem.Call("echo", RawJson.Parse("{\"k\":true}")),
            JsonRpcBatchItem.Call("fail"),
        ]).Within();

        Assert.Equal(42, results[0].GetResult<int>());
        Assert.Equal(new Flag(true), results[1].GetResult<Flag>()); // "k" binds to K: the client's web defaults
        Assert.Equal(42, Assert.Throws<JsonRpcRemoteException>(() => results[2].GetResult<int>()).Code);
    }

    [Fact]
    public async Task CallAsync_AfterDispose_ThrowsObjectDisposed()
    {
        await _client.DisposeAsync();
        Assert.Equal(JsonRpcClientState.Disposed, _client.State);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => _client.CallAsync("echo").Within());
    }

    [Fact]
    public async Task DisposeAsync_PendingCall_FailsWithObjectDisposed()
    {
        var pending = _client.CallAsync("delay", RawJson.Parse("[3000]")).AsTask();
        await Eventually.TrueAsync(() => _server.Received.Any(m => m.Contains("delay")), "delay call sent");
        await _client.DisposeAsync();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => pending.WaitAsync(Bounded.Timeout));
    }

    [Fact]
    public async Task Dispose_InTheContinuationOfACall_EndsAndFailsTheOtherPendingCall()
    {
        // A caller's continuation runs on the thread that read its answer, with that connection's reading parked until
        // it returns. A synchronous Dispose there waits for the reading to end: it must end (the close resumes the
        // parked reading), not wait on itself.
        var pending = _client.CallAsync("delay", RawJson.Parse("[3000]")).AsTask();
        await Eventually.TrueAsync(() => _server.Received.Any(m => m.Contains("delay")), "delay call sent");
        var ctx = TestJsonContext.Default;
        await Task.Run(async () =>
        {
            Assert.Equal(3, await _client.CallAsync("add", new AddParams(1, 2), ctx.AddParams, ctx.Int32).ConfigureAwait(false));
            _client.Dispose();
        }).Within();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => pending.WaitAsync(Bounded.Timeout));
        Assert.Equal(JsonRpcClientState.Disposed, _client.State);
    }

    private sealed class Unserializable
    {
        public int Value => throw new InvalidOperationException("no");
    }
}
