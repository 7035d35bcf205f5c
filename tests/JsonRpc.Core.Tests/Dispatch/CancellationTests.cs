using System.Buffers;
using System.Text;
using System.Text.Json;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Core.Tests.Dispatch;

/// <summary><c>$/cancelRequest</c> in the dispatcher with a <see cref="JsonRpcCancellationScope"/>, and the helpers behind it.</summary>
public sealed class CancellationTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);
    private static readonly DispatchJsonContext Json = DispatchJsonContext.Default;

    /// <summary>A dispatcher whose "slow" runs until its token fires, and records which calls started.</summary>
    private sealed class Slow
    {
        public readonly JsonRpcDispatcher Dispatcher = new();
        public readonly JsonRpcCancellationScope Scope = new();
        private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Slow() => Dispatcher.Add("slow", async ct =>
        {
            _started.TrySetResult();
            await Task.Delay(TimeSpan.FromMinutes(1), ct);
            return 1;
        }, Json.Int32);

        public Task Started => _started.Task;

        public async Task<string?> DispatchAsync(string message)
        {
            var output = new ArrayBufferWriter<byte>();
            var answered = await Dispatcher.DispatchAsync(Encoding.UTF8.GetBytes(message), output, Scope).AsTask().WaitAsync(Bound);
            return answered ? Encoding.UTF8.GetString(output.WrittenSpan) : null;
        }
    }

    private static int ErrorCode(string? answer) => JsonDocument.Parse(answer!).RootElement.GetProperty("error").GetProperty("code").GetInt32();

    [Theory]
    [InlineData("1")]
    [InlineData("\"a\"")]
    [InlineData("null")]
    public async Task DispatchAsync_CancelRequestForRunningCall_FiresTokenAndAnswersRequestCancelled(string id)
    {
        var slow = new Slow();
        var call = slow.DispatchAsync($$"""{"jsonrpc":"2.0","id":{{id}},"method":"slow"}""");
        await slow.Started.WaitAsync(Bound);
        Assert.Null(await slow.DispatchAsync($$$"""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{{{id}}}}}"""));

        var answer = await call;
        Assert.Equal(JsonRpcErrorCodes.RequestCancelled, ErrorCode(answer));
        Assert.Contains($"\"id\":{id}", answer);
        Assert.Equal(0, slow.Scope.Count);
    }

    [Theory]
    [InlineData("""{"id":2}""")]
    [InlineData("""{"id":"1"}""")]
    [InlineData("""{"id":1.5}""")]
    [InlineData("""[1]""")]
    [InlineData("""{"id":true}""")]
    [InlineData(null)]
    public async Task DispatchAsync_CancelRequestNotNamingTheCall_ChangesNothing(string? @params)
    {
        var slow = new Slow();
        var call = slow.DispatchAsync("""{"jsonrpc":"2.0","id":1,"method":"slow"}""");
        await slow.Started.WaitAsync(Bound);
        var cancel = @params is null
            ? """{"jsonrpc":"2.0","method":"$/cancelRequest"}"""
            : $$"""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{{@params}}}""";
        Assert.Null(await slow.DispatchAsync(cancel));
        Assert.False(call.IsCompleted);
        Assert.Equal(1, slow.Scope.Count);

        slow.Scope.CancelAll();
        Assert.Equal(JsonRpcErrorCodes.RequestCancelled, ErrorCode(await call));
    }

    [Fact]
    public async Task DispatchAsync_CancelRequestSentAsRequest_IsInvalidRequest()
    {
        var slow = new Slow();
        var answer = await slow.DispatchAsync("""{"jsonrpc":"2.0","id":7,"method":"$/cancelRequest","params":{"id":1}}""");
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ErrorCode(answer));
        Assert.Contains("\"id\":7", answer);

        // Without a scope too.
        var output = new ArrayBufferWriter<byte>();
        Assert.True(await slow.Dispatcher.DispatchAsync(Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","id":8,"method":"$/cancelRequest","params":{"id":1}}"""), output));
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, ErrorCode(Encoding.UTF8.GetString(output.WrittenSpan)));
    }

    [Fact]
    public async Task DispatchAsync_BatchCallCancelledBeforeItsTurn_StartsCancelled()
    {
        var slow = new Slow();
        var batch = slow.DispatchAsync("""[{"jsonrpc":"2.0","id":1,"method":"slow"},{"jsonrpc":"2.0","id":2,"method":"slow"}]""");
        await slow.Started.WaitAsync(Bound);
        Assert.Equal(2, slow.Scope.Count);
        Assert.Null(await slow.DispatchAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"""));
        Assert.Null(await slow.DispatchAsync("""{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"""));

        var answers = JsonDocument.Parse((await batch)!).RootElement;
        Assert.Equal(2, answers.GetArrayLength());
        Assert.All(answers.EnumerateArray(), a => Assert.Equal(JsonRpcErrorCodes.RequestCancelled, a.GetProperty("error").GetProperty("code").GetInt32()));
        Assert.Equal(0, slow.Scope.Count);
    }

    [Fact]
    public void Scope_SameIdTwice_CancelReachesBothAndEndForgetsEach()
    {
        using var scope = new JsonRpcCancellationScope();
        var first = scope.Begin(5);
        var second = scope.Begin(5);
        var other = scope.Begin("5");
        Assert.Equal(2, scope.Count); // two ids: 5 and "5"
        Assert.True(scope.Cancel(5));
        Assert.True(first.IsCancellationRequested);
        Assert.True(second.IsCancellationRequested);
        Assert.False(other.IsCancellationRequested);
        Assert.False(scope.Cancel(5));

        scope.End("5", other);
        Assert.Equal(0, scope.Count);
        Assert.False(scope.Cancel("5"));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Scope_SameIdTwice_EndOfOneLeavesTheOtherCancellable(bool endFirstBegun)
    {
        using var scope = new JsonRpcCancellationScope();
        var first = scope.Begin(7);
        var second = scope.Begin(7);
        var (ended, left) = endFirstBegun ? (first, second) : (second, first);

        scope.End(7, ended);
        Assert.Equal(1, scope.Count);
        Assert.True(scope.Cancel(7));
        Assert.True(left.IsCancellationRequested);
        Assert.False(ended.IsCancellationRequested);

        scope.End(7, left); // already gone with the cancellation: nothing to do
        Assert.Equal(0, scope.Count);
    }

    [Fact]
    public void Scope_CancelAllOrOuterToken_CancelsRunningAndLaterCalls()
    {
        using var outer = new CancellationTokenSource();
        using var scope = new JsonRpcCancellationScope(outer.Token);
        var running = scope.Begin(1);
        Assert.Equal(outer.Token, scope.Begin(RequestId.None));
        outer.Cancel();
        Assert.True(running.IsCancellationRequested);
        Assert.True(scope.Begin(2).IsCancellationRequested);
        Assert.Equal(0, scope.Count);
    }

    [Fact]
    public void Add_CancelRequestName_Throws()
        => Assert.Throws<ArgumentException>(() => new JsonRpcDispatcher().Add("$/cancelRequest", () => 1, Json.Int32));

    [Theory]
    [InlineData("""{"id":42}""", "42")]
    [InlineData("""{"id":"abc"}""", "\"abc\"")]
    [InlineData("""{"id":"\u0061"}""", "\"a\"")]
    [InlineData("""{"id":null}""", "null")]
    [InlineData("""{"x":[1,{"id":3}],"id":1e3}""", "1e3")]
    public void TryReadCancelRequestId_ValidParams_ReadsId(string @params, string expected)
    {
        Assert.True(JsonRpcProtocolMethods.TryReadCancelRequestId(Encoding.UTF8.GetBytes(@params), out var id));
        Assert.Equal(expected, id.ToString());
    }

    [Theory]
    [InlineData("")]
    [InlineData("[1]")]
    [InlineData("1")]
    [InlineData("{}")]
    [InlineData("""{"id":true}""")]
    [InlineData("""{"id":{}}""")]
    [InlineData("""{"id":[1]}""")]
    [InlineData("""{"id":1,"id":2}""")]
    [InlineData("""{"id":1""")]
    [InlineData("""{"id":"\ud800"}""")]
    public void TryReadCancelRequestId_BadParams_FalseWithoutThrowing(string @params)
        => Assert.False(JsonRpcProtocolMethods.TryReadCancelRequestId(Encoding.UTF8.GetBytes(@params), out _));

    [Theory]
    [InlineData("7", "7")]
    [InlineData("-0", "-0")]
    [InlineData("\"x\\\"y\"", "\"x\\\"y\"")]
    [InlineData("null", "null")]
    public void RequestIdTryParse_OneToken_ParsesAsTheReaderWould(string json, string expected)
    {
        Assert.True(RequestId.TryParse(Encoding.UTF8.GetBytes(json), out var id));
        Assert.Equal(expected, id.ToString());
    }

    [Theory]
    [InlineData("")]
    [InlineData(" 7")]
    [InlineData("7 ")]
    [InlineData("true")]
    [InlineData("{}")]
    [InlineData("\"open")]
    [InlineData("1 2")]
    public void RequestIdTryParse_NotOneIdToken_False(string json)
        => Assert.False(RequestId.TryParse(Encoding.UTF8.GetBytes(json), out _));

    [Theory]
    [InlineData("$/cancelRequest", true)]
    [InlineData("$/progress", true)]
    [InlineData("$cancel", false)]
    [InlineData("a$/", false)]
    public void IsReserved_DollarSlashPrefix(string name, bool reserved)
    {
        Assert.Equal(reserved, JsonRpcProtocolMethods.IsReserved(name));
        Assert.Equal(reserved, JsonRpcProtocolMethods.IsReserved(Encoding.UTF8.GetBytes(name)));
    }
}
