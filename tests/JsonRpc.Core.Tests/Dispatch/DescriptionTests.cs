using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using JsonRpc.Dispatch;

namespace JsonRpc.Core.Tests.Dispatch;

/// <summary>OpenRPC Method Objects made from typed handlers (<see cref="JsonRpcDispatcher.GetDescription"/>).</summary>
public sealed class DescriptionTests
{
    private static readonly DispatchJsonContext Ctx = DispatchJsonContext.Default;

    [Fact]
    public void NamedParams_EitherStructure_SchemasFromTheTypeInfos()
    {
        var dispatcher = new JsonRpcDispatcher().Add("subtract", "minuend", "subtrahend", (int a, int b) => a - b, Ctx.Int32, Ctx.Int32, Ctx.Int32);
        Assert.True(dispatcher.Describe("subtract", "Subtracts.", "The second from the first."));

        var method = Parse(dispatcher.GetDescription("subtract")!.ToJsonString());
        Assert.Equal("subtract", method.GetProperty("name").GetString());
        Assert.Equal("Subtracts.", method.GetProperty("summary").GetString());
        Assert.Equal("The second from the first.", method.GetProperty("description").GetString());
        Assert.Equal("either", method.GetProperty("paramStructure").GetString());
        Assert.Equal(
            """[{"name":"minuend","schema":{"type":"integer"},"required":true},{"name":"subtrahend","schema":{"type":"integer"},"required":true}]""",
            method.GetProperty("params").GetRawText());
        Assert.Equal("""{"name":"result","schema":{"type":"integer"}}""", method.GetProperty("result").GetRawText());
    }

    [Fact]
    public void WholeObjectParams_ByName_OnePropertyPerParam()
    {
        var dispatcher = new JsonRpcDispatcher().Add("subtract", (SubtractParams p) => p.Minuend - p.Subtrahend, Ctx.SubtractParams, Ctx.Int32);

        var method = Parse(dispatcher.GetDescription("subtract")!.ToJsonString());
        Assert.Equal("by-name", method.GetProperty("paramStructure").GetString());
        var names = method.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString());
        Assert.Equal(["minuend", "subtrahend"], names); // the context's camelCase policy
        Assert.All(method.GetProperty("params").EnumerateArray(), p => Assert.Equal("""{"type":"integer"}""", p.GetProperty("schema").GetRawText()));
    }

    [Fact]
    public void WholeArrayParams_ByPosition_NotificationHasNoResult_RawHasAnyResult()
    {
        var dispatcher = new JsonRpcDispatcher()
            .Add("sum", (int[] values) => values.Sum(), Ctx.Int32Array, Ctx.Int32)
            .AddNotification("log", (string _, CancellationToken _) => ValueTask.CompletedTask, Ctx.String)
            .AddRaw("echo", (raw, _) => ValueTask.FromResult(raw));

        var sum = Parse(dispatcher.GetDescription("sum")!.ToJsonString());
        Assert.Equal("by-position", sum.GetProperty("paramStructure").GetString());
        Assert.Equal("""{"type":"array","items":{"type":"integer"}}""", sum.GetProperty("params")[0].GetProperty("schema").GetRawText());
        Assert.True(sum.GetProperty("params")[0].GetProperty("x-whole-params").GetBoolean());
        Assert.False(Parse(dispatcher.GetDescription("log")!.ToJsonString()).TryGetProperty("result", out _));
        var echo = Parse(dispatcher.GetDescription("echo")!.ToJsonString());
        Assert.Equal(0, echo.GetProperty("params").GetArrayLength());
        Assert.Equal("{}", echo.GetProperty("result").GetProperty("schema").GetRawText());

        Assert.Equal(["echo", "log", "sum"], dispatcher.GetDescriptions().Select(m => m!["name"]!.GetValue<string>()));
        Assert.Null(dispatcher.GetDescription("missing"));
        Assert.False(dispatcher.Describe("missing", "x", null));
    }

    [Fact]
    [RequiresUnreferencedCode("Reflection-based handler.")]
    [RequiresDynamicCode("Reflection-based handler.")]
    public void DelegateHandler_ParamsFromItsSignature_TaskResultUnwrapped_TokenLeftOut()
    {
        var dispatcher = new JsonRpcDispatcher()
            .Add("greet", async (string name, int times, CancellationToken ct) =>
            {
                await Task.Yield();
                return string.Concat(Enumerable.Repeat(name, times));
            })
            .Add("ping", () => { });

        var greet = Parse(dispatcher.GetDescription("greet")!.ToJsonString());
        Assert.Equal(["name", "times"], greet.GetProperty("params").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        Assert.Equal("""{"type":"string"}""", greet.GetProperty("params")[0].GetProperty("schema").GetRawText());
        Assert.Equal("""{"type":"string"}""", greet.GetProperty("result").GetProperty("schema").GetRawText());
        Assert.Equal("""{"type":"null"}""", Parse(dispatcher.GetDescription("ping")!.ToJsonString()).GetProperty("result").GetProperty("schema").GetRawText());
    }

    private static JsonElement Parse(string json) => JsonDocument.Parse(json).RootElement;
}
