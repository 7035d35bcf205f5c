using System.Buffers;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Core.Tests.Dispatch;

/// <summary>
/// Async enumerables (StreamJsonRpc's <c>$/enumerator/next</c> protocol) and progress reports served by the dispatcher
/// for one connection's <see cref="JsonRpcCancellationScope"/>.
/// </summary>
public sealed class StreamTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);
    private static readonly DispatchJsonContext Json = DispatchJsonContext.Default;

    /// <summary>A host's way back to the peer that keeps what is sent, or refuses it all.</summary>
    private sealed class RecordingChannel(bool refuse = false) : JsonRpcPeerChannel
    {
        public readonly ConcurrentQueue<string> Sent = new();

        public override bool TrySend(ReadOnlySpan<byte> notification)
        {
            if (refuse)
            {
                return false;
            }

            Sent.Enqueue(Encoding.UTF8.GetString(notification));
            return true;
        }
    }

    /// <summary>A sequence of 1..count that records its end (its enumerator disposed) and whether its token fired.</summary>
    private sealed class Counting
    {
        private readonly TaskCompletionSource _disposed = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Disposed => _disposed.Task;

        public bool Cancelled { get; private set; }

        public TaskCompletionSource? Gate { get; init; } // when set, values after the first wait for it

        public int? FailAt { get; init; }

        public async IAsyncEnumerable<int> Values(int count, [EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            try
            {
                for (var i = 1; i <= count; i++)
                {
                    if (i == FailAt)
                    {
                        throw new InvalidOperationException($"value {i} is broken");
                    }

                    if (i > 1 && Gate is { } gate)
                    {
                        await gate.Task.WaitAsync(cancellationToken);
                    }

                    await Task.Yield();
                    yield return i;
                }
            }
            finally
            {
                Cancelled = cancellationToken.IsCancellationRequested;
                _disposed.TrySetResult();
            }
        }
    }

    private sealed class Rig
    {
        public readonly JsonRpcDispatcher Dispatcher;
        public readonly RecordingChannel Channel;
        public readonly JsonRpcCancellationScope Scope;
        public readonly Counting Sequence;

        public Rig(JsonRpcDispatcherOptions? options = null, Counting? sequence = null, bool refuse = false)
        {
            Dispatcher = new JsonRpcDispatcher(options);
            Channel = new RecordingChannel(refuse);
            Scope = new JsonRpcCancellationScope(default, Channel);
            Sequence = sequence ?? new Counting();
            var values = Sequence;
            Dispatcher.AddStream("count", (int[] count, JsonRpcCallContext _) => values.Values(count[0]), Json.Int32Array, Json.Int32);
        }

        public async Task<string?> SendAsync(string message, JsonRpcCancellationScope? scope = null)
        {
            var output = new ArrayBufferWriter<byte>();
            var answered = await Dispatcher.DispatchAsync(Encoding.UTF8.GetBytes(message), output, scope ?? Scope).AsTask().WaitAsync(Bound);
            return answered ? Encoding.UTF8.GetString(output.WrittenSpan) : null;
        }
    }

    private static JsonElement Result(string? answer) => JsonDocument.Parse(answer!).RootElement.GetProperty("result");

    private static int ErrorCode(string? answer) => JsonDocument.Parse(answer!).RootElement.GetProperty("error").GetProperty("code").GetInt32();

    private static int[] Values(JsonElement result) => [.. result.GetProperty("values").EnumerateArray().Select(v => v.GetInt32())];

    [Fact]
    public async Task Stream_WithoutPrefetch_AnswersTheTokenOnly_ThenEveryValueIsPulledInOrder_ThenFinished()
    {
        var rig = new Rig(new JsonRpcDispatcherOptions { EnumeratorMaxBatch = 2 });

        var first = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[5]}"""));
        Assert.False(first.TryGetProperty("values", out _));
        var token = first.GetProperty("token").GetInt64();
        Assert.Equal(1, rig.Scope.OpenEnumerators);

        var pulled = new List<int>();
        var finished = false;
        for (var pull = 0; pull < 10 && !finished; pull++)
        {
            // Both forms of the params StreamJsonRpc accepts: [token] and {"token": token}.
            var @params = pull % 2 == 0 ? $"[{token}]" : $$"""{"token":{{token}}}""";
            var page = Result(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":{{pull + 2}},"method":"$/enumerator/next","params":{{@params}}}"""));
            var values = Values(page);
            Assert.InRange(values.Length, 0, 2);
            pulled.AddRange(values);
            finished = page.GetProperty("finished").GetBoolean();
        }

        Assert.True(finished);
        Assert.Equal([1, 2, 3, 4, 5], pulled);
        await rig.Sequence.Disposed.WaitAsync(Bound);
        Assert.Equal(0, rig.Scope.OpenEnumerators);
        Assert.Equal(JsonRpcDispatcher.UnknownEnumerator, ErrorCode(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":99,"method":"$/enumerator/next","params":[{{token}}]}""")));
    }

    [Fact]
    public async Task Stream_WithPrefetch_AnswersTheFirstValuesWithTheToken_AndWithoutItWhenTheSequenceEndedThere()
    {
        var rig = new Rig(new JsonRpcDispatcherOptions { EnumeratorPrefetch = 3 });

        var first = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[5]}"""));
        Assert.Equal([1, 2, 3], Values(first));
        var token = first.GetProperty("token").GetInt64();
        var rest = new List<int>();
        for (var pull = 0; pull < 5 && !rest.Contains(5); pull++)
        {
            rest.AddRange(Values(Result(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{token}}]}"""))));
        }

        Assert.Equal([4, 5], rest);

        var whole = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":3,"method":"count","params":[2]}"""));
        Assert.Equal([1, 2], Values(whole));
        Assert.False(whole.TryGetProperty("token", out _));
    }

    [Fact]
    public async Task Stream_Abort_DisposesTheEnumerator_AndCancelsItsToken()
    {
        var rig = new Rig(sequence: new Counting { Gate = new TaskCompletionSource() });
        var token = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[100]}""")).GetProperty("token").GetInt64();
        Assert.Equal(new[] { 1 }, Values(Result(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{token}}]}"""))));

        Assert.Null(await rig.SendAsync($$$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":{"token":{{{token}}}}}"""));

        await rig.Sequence.Disposed.WaitAsync(Bound);
        Assert.True(rig.Sequence.Cancelled);
        Assert.Equal(0, rig.Scope.OpenEnumerators);
        Assert.Equal(JsonRpcDispatcher.UnknownEnumerator, ErrorCode(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":3,"method":"$/enumerator/abort","params":[{{token}}]}""")));
    }

    [Fact]
    public async Task Stream_ConnectionEnds_DisposesTheEnumerator_EvenDuringAPull_AndRefusesNewStreams()
    {
        var rig = new Rig(sequence: new Counting { Gate = new TaskCompletionSource() });
        var token = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[100]}""")).GetProperty("token").GetInt64();
        Assert.Equal(new[] { 1 }, Values(Result(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{token}}]}"""))));
        var waiting = rig.SendAsync($$"""{"jsonrpc":"2.0","id":3,"method":"$/enumerator/next","params":[{{token}}]}""");

        rig.Scope.CancelAll();

        Assert.Equal(JsonRpcDispatcher.RequestCancelled, ErrorCode(await waiting));
        await rig.Sequence.Disposed.WaitAsync(Bound);
        Assert.True(rig.Sequence.Cancelled);
        Assert.Equal(0, rig.Scope.OpenEnumerators);
        Assert.Equal(JsonRpcDispatcher.Overloaded, ErrorCode(await rig.SendAsync("""{"jsonrpc":"2.0","id":4,"method":"count","params":[1]}""")));
    }

    [Fact]
    public async Task Stream_SequenceThrows_ThePullGetsTheError_AndTheStreamIsOver()
    {
        var rig = new Rig(sequence: new Counting { FailAt = 3 });
        var token = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[5]}""")).GetProperty("token").GetInt64();
        var pulled = new List<int>();
        string? failure = null;
        for (var pull = 0; pull < 5 && failure is null; pull++)
        {
            var answer = await rig.SendAsync($$"""{"jsonrpc":"2.0","id":{{pull + 2}},"method":"$/enumerator/next","params":[{{token}}]}""");
            if (answer!.Contains("\"error\""))
            {
                failure = answer;
            }
            else
            {
                pulled.AddRange(Values(Result(answer)));
            }
        }

        Assert.Equal([1, 2], pulled);
        Assert.Equal(JsonRpcErrorCodes.InternalError, ErrorCode(failure));
        Assert.Contains("value 3 is broken", failure);
        Assert.Equal(0, rig.Scope.OpenEnumerators);
    }

    [Fact]
    public async Task Stream_SecondPullWhileTheFirstRuns_IsRefused_AndTheFirstStillAnswers()
    {
        var gate = new TaskCompletionSource();
        var rig = new Rig(sequence: new Counting { Gate = gate });
        var token = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[3]}""")).GetProperty("token").GetInt64();
        Assert.Equal(new[] { 1 }, Values(Result(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{token}}]}"""))));
        var first = rig.SendAsync($$"""{"jsonrpc":"2.0","id":3,"method":"$/enumerator/next","params":[{{token}}]}""");

        var second = await rig.SendAsync($$"""{"jsonrpc":"2.0","id":4,"method":"$/enumerator/next","params":[{{token}}]}""");
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ErrorCode(second));
        Assert.Contains("already running", second);

        gate.SetResult();
        Assert.Equal(2, Values(Result(await first))[0]);
    }

    [Fact]
    public async Task Stream_MoreThanTheCapOpen_IsRefusedWithAClearError_UntilOneEnds()
    {
        var rig = new Rig(new JsonRpcDispatcherOptions { MaxOpenEnumerators = 2 });
        var a = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[3]}""")).GetProperty("token").GetInt64();
        Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":2,"method":"count","params":[3]}"""));

        var refused = await rig.SendAsync("""{"jsonrpc":"2.0","id":3,"method":"count","params":[3]}""");
        Assert.Equal(JsonRpcDispatcher.Overloaded, ErrorCode(refused));
        Assert.Contains("2 async enumerables open", refused);

        await rig.SendAsync($$"""{"jsonrpc":"2.0","method":"$/enumerator/abort","params":[{{a}}]}""");
        Assert.True(Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":4,"method":"count","params":[3]}""")).TryGetProperty("token", out _));
    }

    [Fact]
    public async Task Stream_OtherConnectionsTokens_AreUnknownHere()
    {
        var rig = new Rig();
        var token = Result(await rig.SendAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[3]}""")).GetProperty("token").GetInt64();
        var other = new JsonRpcCancellationScope();

        Assert.Equal(JsonRpcDispatcher.UnknownEnumerator, ErrorCode(await rig.SendAsync($$"""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[{{token}}]}""", other)));
        Assert.Equal(JsonRpcErrorCodes.InvalidParams, ErrorCode(await rig.SendAsync("""{"jsonrpc":"2.0","id":3,"method":"$/enumerator/next","params":["x"]}""")));
    }

    [Fact]
    public async Task Stream_DispatchedWithoutAScope_IsAnsweredWithWhy_AndEnumeratorMethodsAreUnknown()
    {
        var rig = new Rig();
        var output = new ArrayBufferWriter<byte>();
        await rig.Dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":1,"method":"count","params":[3]}"""u8.ToArray(), output).AsTask().WaitAsync(Bound);
        var answer = Encoding.UTF8.GetString(output.WrittenSpan);
        Assert.Equal(JsonRpcErrorCodes.InternalError, ErrorCode(answer));
        Assert.Contains("JsonRpcCancellationScope", answer);

        output.Clear();
        await rig.Dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":2,"method":"$/enumerator/next","params":[1]}"""u8.ToArray(), output).AsTask().WaitAsync(Bound);
        Assert.Equal(JsonRpcErrorCodes.MethodNotFound, ErrorCode(Encoding.UTF8.GetString(output.WrittenSpan)));
    }

    [Fact]
    public void Add_EnumeratorMethodNames_AreRefused()
    {
        var dispatcher = new JsonRpcDispatcher();
        Assert.Throws<ArgumentException>(() => dispatcher.Add("$/enumerator/next", () => 1, Json.Int32));
        Assert.Throws<ArgumentException>(() => dispatcher.AddStream("$/enumerator/abort", (int n, JsonRpcCallContext _) => new Counting().Values(n), Json.Int32, Json.Int32));
    }

    /// <summary>A method that reports 1..n through the progress the call's params name, and answers n.</summary>
    private static JsonRpcDispatcher ProgressDispatcher(Func<JsonRpcCallContext, IProgress<int>?> progress)
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.AddWithContext("work", async (JsonElement _, JsonRpcCallContext call) =>
        {
            var reporter = progress(call);
            for (var i = 1; i <= 3; i++)
            {
                await Task.Yield();
                reporter?.Report(i);
            }

            return 3;
        }, Json.JsonElement, Json.Int32);
        return dispatcher;
    }

    [Theory]
    [InlineData("""[7]""", """{"jsonrpc":"2.0","method":"$/progress","params":[7,{0}]}""")]
    [InlineData("""{"workDoneToken":"w-1"}""", """{"jsonrpc":"2.0","method":"$/progress","params":{"token":"w-1","value":{0}}}""")]
    [InlineData("""{"partialResultToken":5}""", """{"jsonrpc":"2.0","method":"$/progress","params":{"token":5,"value":{0}}}""")]
    [InlineData("""{"_meta":{"progressToken":"m"}}""", """{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"m","progress":{0}}}""")]
    public async Task Progress_ReportsReachTheCaller_InOrder_BeforeTheAnswer_TheWayTheTokenCame(string @params, string expected)
    {
        var dispatcher = ProgressDispatcher(call => call.Params.Span[0] == (byte)'['
            ? call.CreateProgress(JsonDocument.Parse(call.Params.Utf8).RootElement[0].GetInt64(), Json.Int32)
            : call.CreateProgress(Json.Int32));
        var channel = new RecordingChannel();
        var scope = new JsonRpcCancellationScope(default, channel);
        var output = new ArrayBufferWriter<byte>();

        Assert.True(await dispatcher.DispatchAsync(Encoding.UTF8.GetBytes($$"""{"jsonrpc":"2.0","id":1,"method":"work","params":{{@params}}}"""), output, scope).AsTask().WaitAsync(Bound));

        // Sent before DispatchAsync completed, i.e. before the host could send the answer.
        Assert.Equal([.. Enumerable.Range(1, 3).Select(i => expected.Replace("{0}", i.ToString()))], channel.Sent);
        Assert.Equal(3, Result(Encoding.UTF8.GetString(output.WrittenSpan)).GetInt32());
    }

    [Fact]
    public async Task Progress_McpObjectValue_GivesTheMembersAfterTheCallersToken()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.AddWithContext("work", (JsonElement _, JsonRpcCallContext call) =>
        {
            call.CreateProgress(Json.SubtractParams)!.Report(new SubtractParams(5, 2));
            return new ValueTask<int>(1);
        }, Json.JsonElement, Json.Int32);
        var channel = new RecordingChannel();

        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":1,"method":"work","params":{"_meta":{"progressToken":42}}}"""u8.ToArray(), new ArrayBufferWriter<byte>(), new JsonRpcCancellationScope(default, channel)).AsTask().WaitAsync(Bound);

        Assert.Equal(["""{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":42,"minuend":5,"subtrahend":2}}"""], channel.Sent);
    }

    [Fact]
    public async Task Progress_WithoutATokenOrAWayBack_IsNull_AndARefusingChannelLosesReportsOnly()
    {
        IProgress<int>? seen = new Progress<int>();
        var dispatcher = ProgressDispatcher(call => seen = call.CreateProgress(Json.Int32));
        var output = new ArrayBufferWriter<byte>();
        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":1,"method":"work","params":{}}"""u8.ToArray(), output, new JsonRpcCancellationScope(default, new RecordingChannel())).AsTask().WaitAsync(Bound);
        Assert.Null(seen);

        output.Clear();
        await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":2,"method":"work","params":{"workDoneToken":1}}"""u8.ToArray(), output).AsTask().WaitAsync(Bound);
        Assert.Null(seen); // no scope: no way back

        output.Clear();
        var refusing = new JsonRpcCancellationScope(default, new RecordingChannel(refuse: true));
        Assert.True(await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":3,"method":"work","params":{"workDoneToken":1}}"""u8.ToArray(), output, refusing).AsTask().WaitAsync(Bound));
        Assert.NotNull(seen);
        Assert.Equal(3, Result(Encoding.UTF8.GetString(output.WrittenSpan)).GetInt32());
    }
}
