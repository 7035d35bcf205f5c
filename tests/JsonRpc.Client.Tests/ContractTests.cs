using JsonRpc.Client.Tests.Contracts;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

/// <summary>
/// Generated contract code end to end: a proxy (<c>Attach</c>) calling a target (<c>AddTarget</c>) through the real
/// router on Kestrel, and the dispatcher's registration.
/// </summary>
public sealed class ContractTests
{
    private static async Task<(RouterHost Router, JsonRpcClient Provider, JsonRpcClient Caller, Calculator Target)> StartAsync()
    {
        var router = await RouterHost.StartAsync();
        var provider = await router.ConnectAsync();
        var target = new Calculator();
        provider.AddTarget<IScientificCalculator>(target);
        await provider.RegisterAsync("calculator").Within();
        var caller = await router.ConnectAsync();
        return (router, provider, caller, target);
    }

    [Fact]
    public async Task Attach_CallsThroughRouter_ReachTheTarget()
    {
        var (router, provider, caller, target) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            var calculator = caller.Attach<IScientificCalculator>();

            Assert.Equal(5, await calculator.AddAsync(2, 3).Within());
            Assert.Equal(2, await calculator.SubtractAsync(5, 3).Within());
            await calculator.ResetAsync().Within();
            Assert.Equal(1, target.Resets);
            await calculator.TouchAsync("clicked").Within();
            Assert.Equal("clicked", target.LastEvent);
            Assert.Equal(new Position(11, 2, "moved"), await calculator.MoveAsync(new Position(1, 2), 10, "moved").Within());
            Assert.Equal(new Position(1, 2), await calculator.MoveAsync(new Position(1, 2), 0, null).Within());
            Assert.Equal(3.0, await calculator.SqrtAsync(9).Within());
        }
    }

    [Fact]
    public async Task AddTarget_MethodsAreAnnouncedUnderTheirWireNames()
    {
        var (router, provider, caller, _) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            Assert.Contains("calc.subtract", provider.Methods);
            Assert.Contains("AddAsync", provider.Methods);
            Assert.Contains("SqrtAsync", provider.Methods);
            Assert.DoesNotContain("SubtractAsync", provider.Methods);

            // The wire as a hand-written caller sees it: positional and named params, by the wire name.
            Assert.Equal(4, await caller.CallAsync<int>("calc.subtract", new object[] { 7, 3 }).Within());
            Assert.Equal(4, await caller.CallAsync<int>("calc.subtract", new { subtrahend = 3, minuend = 7 }).Within());
        }
    }

    [Fact]
    public async Task AddTarget_ParamsThatDoNotFit_AnswerInvalidParams()
    {
        var (router, provider, caller, _) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            foreach (var bad in new object[] { new object[] { 1 }, new object[] { 1, 2, 3 }, new { minuend = 1 }, new object[] { "x", 2 } })
            {
                var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync<int>("calc.subtract", bad).Within());
                Assert.Equal(JsonRpcErrorCodes.InvalidParams, ex.Code);
            }

            // A stream method binds its params the same way.
            var stream = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.CallAsync<int>("RangeAsync", new object[] { "x" }).Within());
            Assert.Equal(JsonRpcErrorCodes.InvalidParams, stream.Code);
        }
    }

    [Fact]
    public async Task Attach_TargetThrows_RemoteExceptionWithItsMessage()
    {
        await using var router = await RouterHost.StartAsync();
        await using var provider = await router.ConnectAsync(new JsonRpcClientOptions { IncludeExceptionMessages = true });
        provider.AddTarget<ICalculator>(new Calculator());
        await provider.RegisterAsync("calculator").Within();
        await using var caller = await router.ConnectAsync();

        var ex = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => caller.Attach<ICalculator>().FailAsync("kaput").AsTask().Within());
        Assert.Equal(JsonRpcErrorCodes.InternalError, ex.Code);
        Assert.Contains("kaput", ex.Message);
    }

    [Fact]
    public async Task Attach_Progress_ReportsArriveInOrderBeforeTheAnswer()
    {
        var (router, provider, caller, _) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            var reports = new List<int>();
            var progress = new SynchronousProgress(reports);

            var result = await caller.Attach<ICalculator>().CountAsync(5, progress, CancellationToken.None).Within();

            Assert.Equal(5, result);
            lock (reports)
            {
                Assert.Equal([1, 2, 3, 4, 5], reports);
            }
        }
    }

    [Fact]
    public async Task Attach_Stream_AllValuesInOrder_AndBreakingOutDisposesTheTargetsEnumerator()
    {
        var (router, provider, caller, target) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            var calculator = caller.Attach<ICalculator>();
            var values = new List<int>();
            await foreach (var value in calculator.RangeAsync(300, CancellationToken.None))
            {
                values.Add(value);
            }

            Assert.Equal(Enumerable.Range(0, 300), values);
            Assert.Empty(await calculator.RangeAsync(0, CancellationToken.None).ToListAsync().AsTask().Within());

            var seen = 0;
            await foreach (var value in calculator.EndlessAsync())
            {
                Assert.Equal("v" + seen, value);
                if (++seen == 5)
                {
                    break;
                }
            }

            await target.EndlessDisposed.Within();
        }
    }

    [Fact]
    public async Task Attach_CancellationToken_CancelsTheTargetsToken()
    {
        var (router, provider, caller, target) = await StartAsync();
        await using (router)
        await using (provider)
        await using (caller)
        {
            using var cts = new CancellationTokenSource();
            var call = caller.Attach<ICalculator>().WaitForCancelAsync(cts.Token);
            await target.Waiting.Within();
            await cts.CancelAsync();

            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.Within());
            await target.Cancelled.Within();
        }
    }

    [Fact]
    public async Task Dispatcher_AddTarget_ServesThePlainMethods()
    {
        var dispatcher = new JsonRpcDispatcher();
        dispatcher.AddTarget<IPlainCalculator>(new PlainCalculator());
        var output = new System.Buffers.ArrayBufferWriter<byte>();

        Assert.True(await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":1,"method":"plain.add","params":[2,3]}"""u8.ToArray(), output).Within());
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":5}""", System.Text.Encoding.UTF8.GetString(output.WrittenSpan));

        output.Clear();
        Assert.True(await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":2,"method":"plain.add","params":{"b":3,"a":4}}"""u8.ToArray(), output).Within());
        Assert.Equal("""{"jsonrpc":"2.0","id":2,"result":7}""", System.Text.Encoding.UTF8.GetString(output.WrittenSpan));

        output.Clear();
        Assert.True(await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":3,"method":"plain.add","params":[2]}"""u8.ToArray(), output).Within());
        Assert.Contains("-32602", System.Text.Encoding.UTF8.GetString(output.WrittenSpan));

        // Params that do not fit get -32602, with the call's id and a detail that says what is wrong, and never reach
        // the target: plain.add (two plain params) is bound by the dispatcher's named-params binder, as a hand-written
        // Add(name, "a", "b", ...) is; plain.sum4 (four) by the generated params converter, read without the serializer.
        output.Clear();
        Assert.True(await dispatcher.DispatchAsync("""{"jsonrpc":"2.0","id":4,"method":"plain.sum4","params":{"d":4,"c":3,"b":2,"a":1}}"""u8.ToArray(), output).Within());
        Assert.Equal("""{"jsonrpc":"2.0","id":4,"result":10}""", System.Text.Encoding.UTF8.GetString(output.WrittenSpan));
        string[][] bad =
        [
            ["plain.add", "[]", "Too few params: expected 2 (a, b)"],
            ["plain.add", "[2,3,4]", "Too many params: expected 2 (a, b)"],
            ["plain.add", "{\"a\":1}", "Missing param: b (a, b)"],
            ["plain.sum4", "[]", "4 params expected, 0 given"],
            ["plain.sum4", "[1,2,3,4,5]", "4 params expected, more were given"],
            ["plain.sum4", "{\"a\":1,\"b\":2}", "lacks one of a, b, c, d"],
        ];
        string[] wrongTypes = ["[2,\"3\"]", "[2,{\"x\":1}]", "[2.5,1]", "[2147483648,1]", "[[2],3]", "[2,null]"];
        var cases = bad.Select(b => (Method: b[0], Json: b[1], Detail: b[2]))
            .Concat(wrongTypes.Select(json => (Method: "plain.add", Json: json, Detail: "Invalid params")))
            .Concat(wrongTypes.Select(json => (Method: "plain.sum4", Json: json.Replace("]", ",3,4]", StringComparison.Ordinal), Detail: "Invalid params")));
        foreach (var (method, json, detail) in cases)
        {
            output.Clear();
            Assert.True(await dispatcher.DispatchAsync(System.Text.Encoding.UTF8.GetBytes($$"""{"jsonrpc":"2.0","id":9,"method":"{{method}}","params":{{json}}}"""), output).Within());
            var answer = System.Text.Encoding.UTF8.GetString(output.WrittenSpan);
            Assert.True(answer.StartsWith("""{"jsonrpc":"2.0","id":9,"error":{"code":-32602,""", StringComparison.Ordinal), $"{method} {json}: {answer}");
            Assert.Contains(detail, answer);
        }

    }

    [Fact]
    public async Task AttachAndAddTarget_NotAContract_ThrowWithWhatToDo()
    {
        await using var router = await RouterHost.StartAsync();
        await using var client = await router.ConnectAsync();
        using var disposable = new Disposable();

        Assert.Contains("[JsonRpcContract]", Assert.Throws<InvalidOperationException>(() => client.Attach<IDisposable>()).Message);
        Assert.Contains("[JsonRpcContract]", Assert.Throws<InvalidOperationException>(() => client.AddTarget<IDisposable>(disposable)).Message);
        Assert.Contains("[JsonRpcContract]", Assert.Throws<InvalidOperationException>(() => new JsonRpcDispatcher().AddTarget<IDisposable>(disposable)).Message);
    }

    [Fact]
    public async Task Attach_OptionsWithoutTheTypes_ThrowsNamingTheMissingType()
    {
        await using var router = await RouterHost.StartAsync();
        await using var client = await router.ConnectAsync();
        var options = new System.Text.Json.JsonSerializerOptions { TypeInfoResolver = EmptyJson.Default };

        var ex = Assert.Throws<InvalidOperationException>(() => client.Attach<ICalculator>(options));
        Assert.Contains("Int32", ex.Message);
    }

    /// <summary>Records reports as they come (the client delivers them on its read loop, in order).</summary>
    private sealed class SynchronousProgress(List<int> reports) : IProgress<int>
    {
        public void Report(int value)
        {
            lock (reports)
            {
                reports.Add(value);
            }
        }
    }

    private sealed class Disposable : IDisposable
    {
        public void Dispose()
        {
        }
    }
}

[JsonRpc.Contracts.JsonRpcContract(typeof(CalculatorJson))]
public interface IPlainCalculator
{
    [JsonRpc.Contracts.JsonRpcMethod("plain.add")]
    Task<int> AddAsync(int a, int b);

    [JsonRpc.Contracts.JsonRpcMethod("plain.sum4")]
    ValueTask<int> Sum4Async(int a, int b, int c, int d);
}

[System.Text.Json.Serialization.JsonSerializable(typeof(bool))]
public sealed partial class EmptyJson : System.Text.Json.Serialization.JsonSerializerContext;

public sealed class PlainCalculator : IPlainCalculator
{
    public Task<int> AddAsync(int a, int b) => Task.FromResult(a + b);

    public ValueTask<int> Sum4Async(int a, int b, int c, int d) => new(a + b + c + d);
}
