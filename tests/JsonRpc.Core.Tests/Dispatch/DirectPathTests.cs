using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Dispatch;

namespace JsonRpc.Core.Tests.Dispatch;

/// <summary>
/// The dispatcher binds scalar arguments and formats primitive results and number ids without the serializer. These
/// tests hold it to the serializer's own answers: the same methods registered with metadata whose converter merely
/// wraps the built-in one (so the dispatcher must go through the serializer) answer every call with the same bytes.
/// </summary>
public class DirectPathTests
{
    private static readonly DispatchJsonContext Json = DispatchJsonContext.Default;

    private static readonly JsonSerializerOptions Wrapped = CreateWrappedOptions();

    public static TheoryData<string> Params => new()
    {
        "[42,23]", "[ 42 , 23 ]", "[-7,0]", "[-0,1]", "[2147483647,-2147483648]", "[2147483648,1]", "[1.0,2]", "[1e2,3]",
        "[1.5,2]", "[\"1\",2]", "[null,1]", "[true,1]", "[[1],2]", "[{},2]", "[1]", "[1,2,3]", "[]", "{}",
        "{\"minuend\":42,\"subtrahend\":23}", "{ \"subtrahend\" : 23 , \"minuend\" : 42 }", "{\"minuend\":42}",
        "{\"minuend\":42,\"subtrahend\":23,\"extra\":[1,{\"a\":2}]}", "{\"min\\u0075end\":42,\"subtrahend\":23}",
        "{\"minuend\":\"42\",\"subtrahend\":23}", "{\"x\":1,\"y\":2}", "[1e400,2]",
    };

    public static TheoryData<string, string> TypedCalls => new()
    {
        { "long", "[9223372036854775807,-9223372036854775808]" },
        { "long", "[9223372036854775808,1]" },
        { "long", "[1,2.5]" },
        { "double", "[1.5,-2.25e-3]" },
        { "double", "[1e308,1e308]" },
        { "double", "[1e400,0]" },
        { "double", "[-0.0,0]" },
        { "double", "[\"NaN\",0]" },
        { "bool", "[true,false]" },
        { "bool", "[false,null]" },
        { "bool", "[1,true]" },
        { "string", "[\"a\",\"b\"]" },
        { "string", "[\"caf\u00e9\",\"\"]" },
        { "string", "[\"esc\\\"aped\",\"\\u00e9\"]" },
        { "string", "[null,\"x\"]" },
        { "string", "[1,\"x\"]" },
        { "string", "{\"minuend\":\"a\",\"subtrahend\":\"<tag>&\"}" },
    };

    public static TheoryData<string> Ids => new() { "1", "-1", "0", "9223372036854775807", "123456789012345678901234567890", "1.50", "1e3", "null", "\"1\"", "\"caf\u00e9\"", "\"<x>\"" };

    [Theory]
    [MemberData(nameof(Params))]
    public async Task Int32Arguments_BindAsTheSerializerDoes(string parameters)
    {
        var direct = new JsonRpcDispatcher().Add("m", "minuend", "subtrahend", static (int a, int b) => a - b, Json.Int32, Json.Int32, Json.Int32);
        var wrapped = new JsonRpcDispatcher().Add("m", "minuend", "subtrahend", static (int a, int b) => a - b, Info<int>(), Info<int>(), Info<int>());
        await AssertSameAnswerAsync(direct, wrapped, $$"""{"jsonrpc":"2.0","method":"m","params":{{parameters}},"id":1}""");
    }

    [Theory]
    [MemberData(nameof(TypedCalls))]
    public async Task OtherPrimitives_BindAndFormatAsTheSerializerDoes(string type, string parameters)
    {
        var (direct, wrapped) = type switch
        {
            "long" => (Pair<long>(Json.Int64, static (a, b) => unchecked(a + b)), Pair<long>(Info<long>(), static (a, b) => unchecked(a + b))),
            "double" => (Pair<double, bool>(Json.Double, static (a, b) => a < b, Json.Boolean), Pair<double, bool>(Info<double>(), static (a, b) => a < b, Info<bool>())),
            "bool" => (Pair<bool>(Json.Boolean, static (a, b) => a && !b), Pair<bool>(Info<bool>(), static (a, b) => a && !b)),
            _ => (Pair<string, int>(Json.String, static (a, b) => (a?.Length ?? -1) * 100 + (b?.Length ?? -1), Json.Int32),
                  Pair<string, int>(Info<string>(), static (a, b) => (a?.Length ?? -1) * 100 + (b?.Length ?? -1), Info<int>())),
        };

        await AssertSameAnswerAsync(direct, wrapped, $$"""{"jsonrpc":"2.0","method":"m","params":{{parameters}},"id":7}""");
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public async Task Answers_FormatIdAndResultAsTheWriterDoes(string id)
    {
        foreach (var value in new[] { 0L, -1L, long.MaxValue, long.MinValue })
        {
            var direct = new JsonRpcDispatcher().Add("m", () => value, Json.Int64);
            var wrapped = new JsonRpcDispatcher().Add("m", () => value, Info<long>());
            await AssertSameAnswerAsync(direct, wrapped, $$"""{"jsonrpc":"2.0","method":"m","id":{{id}}}""");
        }
    }

    [Fact]
    public void BuiltInPrimitive_IsDirect_ForSourceGeneratedAndReflectionMetadataOnly()
    {
        Assert.True(BuiltInPrimitive.IsDirect(Json.Int32));
        Assert.True(BuiltInPrimitive.IsDirect(Json.String));
        Assert.True(BuiltInPrimitive.IsDirect((JsonTypeInfo<long>)JsonSerializerOptions.Default.GetTypeInfo(typeof(long))));
        Assert.False(BuiltInPrimitive.IsDirect(Info<int>()));
        Assert.False(BuiltInPrimitive.IsDirect(Json.Int32Array));
        var lenient = new JsonSerializerOptions(JsonSerializerOptions.Default) { NumberHandling = JsonNumberHandling.AllowReadingFromString };
        Assert.False(BuiltInPrimitive.IsDirect((JsonTypeInfo<int>)lenient.GetTypeInfo(typeof(int))));
    }

    [Fact]
    public async Task LenientNumberHandling_IsHonoured()
    {
        var lenient = new JsonSerializerOptions(JsonSerializerOptions.Default) { NumberHandling = JsonNumberHandling.AllowReadingFromString };
        var int32 = (JsonTypeInfo<int>)lenient.GetTypeInfo(typeof(int));
        var dispatcher = new JsonRpcDispatcher().Add("m", "a", "b", static (int a, int b) => a - b, int32, int32, Json.Int32);
        var answer = await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"m","params":["42",23],"id":1}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":19}""", answer);
    }

    [Fact]
    public void MethodTable_FindsEveryRegisteredName_AndNothingElse()
    {
        var dispatcher = new JsonRpcDispatcher();
        var names = Enumerable.Range(0, 200).Select(i => i % 3 == 0 ? $"m{i}" : i % 3 == 1 ? $"namespace/method.with.a.long.name.{i}" : $"caf\u00e9{i}").ToList();
        foreach (var name in names)
        {
            dispatcher.Add(name, () => 1, Json.Int32);
        }

        foreach (var name in names)
        {
            Assert.True(dispatcher.Contains(Encoding.UTF8.GetBytes(name)), name);
            Assert.True(dispatcher.Contains(name), name);
            Assert.False(dispatcher.Contains(Encoding.UTF8.GetBytes(name + "x")), name);
            Assert.False(dispatcher.Contains(Encoding.UTF8.GetBytes(name[..^1] + "#")), name);
        }

        Assert.False(dispatcher.Contains(""u8));
        Assert.Equal(names.Count, dispatcher.Methods.Count);
        for (var i = 0; i < names.Count; i += 2)
        {
            Assert.True(dispatcher.Remove(names[i]));
        }

        for (var i = 0; i < names.Count; i++)
        {
            Assert.Equal(i % 2 == 1, dispatcher.Contains(Encoding.UTF8.GetBytes(names[i])));
        }
    }

    [Fact]
    public async Task EscapedMethodName_FindsTheMethod()
    {
        var dispatcher = new JsonRpcDispatcher().Add("caf\u00e9/sum", () => 5, Json.Int32);
        var answer = await DispatchAsync(dispatcher, """{"jsonrpc":"2.0","method":"caf\u00e9\/sum","id":1}""");
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"result":5}""", answer);
    }

    private static JsonRpcDispatcher Pair<T, TResult>(JsonTypeInfo<T> type, Func<T, T, TResult> handler, JsonTypeInfo<TResult> result)
        => new JsonRpcDispatcher().Add("m", "minuend", "subtrahend", handler, type, type, result);

    private static JsonRpcDispatcher Pair<T>(JsonTypeInfo<T> type, Func<T, T, T> handler)
        => new JsonRpcDispatcher().Add("m", "minuend", "subtrahend", handler, type, type, type);

    private static async Task AssertSameAnswerAsync(JsonRpcDispatcher direct, JsonRpcDispatcher wrapped, string request)
    {
        var expected = await DispatchAsync(wrapped, request);
        var actual = await DispatchAsync(direct, request);
        Assert.NotNull(expected);
        if (expected.Contains("\"error\"", StringComparison.Ordinal))
        {
            // Both refuse; the detail text may name the failure differently, the code and id must agree.
            using var e = JsonDocument.Parse(expected);
            using var a = JsonDocument.Parse(actual!);
            Assert.Equal(e.RootElement.GetProperty("error").GetProperty("code").GetInt32(), a.RootElement.GetProperty("error").GetProperty("code").GetInt32());
            Assert.Equal(e.RootElement.GetProperty("id").GetRawText(), a.RootElement.GetProperty("id").GetRawText());
        }
        else
        {
            Assert.Equal(expected, actual);
        }
    }

    private static async Task<string?> DispatchAsync(JsonRpcDispatcher dispatcher, string message)
    {
        var output = new ArrayBufferWriter<byte>();
        var written = await dispatcher.DispatchAsync(Encoding.UTF8.GetBytes(message), output).AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        return written ? Encoding.UTF8.GetString(output.WrittenSpan) : null;
    }

    private static JsonTypeInfo<T> Info<T>() => (JsonTypeInfo<T>)Wrapped.GetTypeInfo(typeof(T));

    private static JsonSerializerOptions CreateWrappedOptions()
    {
        var options = new JsonSerializerOptions
        {
            TypeInfoResolver = new DefaultJsonTypeInfoResolver(),
            Converters =
            {
                new Wrapping<int>(JsonMetadataServices.Int32Converter),
                new Wrapping<long>(JsonMetadataServices.Int64Converter),
                new Wrapping<double>(JsonMetadataServices.DoubleConverter),
                new Wrapping<bool>(JsonMetadataServices.BooleanConverter),
                new Wrapping<string?>(JsonMetadataServices.StringConverter),
            },
        };
        options.MakeReadOnly();
        return options;
    }

    /// <summary>The built-in converter behind a type of our own, so the dispatcher cannot tell it is built in.</summary>
    private sealed class Wrapping<T>(JsonConverter<T> inner) : JsonConverter<T>
    {
        public override bool HandleNull => inner.HandleNull;

        public override T? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => inner.Read(ref reader, typeToConvert, options);

        public override void Write(Utf8JsonWriter writer, T value, JsonSerializerOptions options) => inner.Write(writer, value, options);
    }
}
