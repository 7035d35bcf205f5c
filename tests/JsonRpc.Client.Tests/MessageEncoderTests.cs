using System.Text;
using JsonRpc.Client.Internal;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

public sealed class MessageEncoderTests
{
    [Theory]
    [InlineData("{\"a\":1}", "{\"a\":1}")]
    [InlineData("[1,2]", "[1,2]")]
    [InlineData("  [1]", "[1]")] // RawJson trims surrounding whitespace
    [InlineData("5", "[5]")]
    [InlineData("\"s\"", "[\"s\"]")]
    [InlineData("null", "[null]")]
    [InlineData(" true", "[true]")]
    public void WriteCall_ParamsValue_ObjectsAndArraysAsIsScalarsWrapped(string value, string expected)
    {
        var text = Write(7, "m", new RawParams(RawJson.FromUtf8(Encoding.UTF8.GetBytes(value))));
        Assert.Equal($"{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":{expected}}}", text);
    }

    [Fact]
    public void WriteCall_NotificationWithEscapedMethod_HasNoIdAndValidJson()
    {
        var text = Write(0, "a\"b\né", new TypedParams<Point>(new Point(1, 2), TestJsonContext.Default.Point));
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"method\":\"a\\\"b\\né\",\"params\":{\"x\":1,\"y\":2}}", text);
        var message = Assert.IsType<JsonRpcNotification>(JsonRpcMessage.Parse(text));
        Assert.Equal("a\"b\né", message.Method);
    }

    [Fact]
    public void WriteCall_LargeParams_GrowsBuffer()
    {
        var big = "[" + string.Join(",", Enumerable.Repeat("\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"", 5000)) + "]";
        Assert.EndsWith(big + "}", Write(1, "m", new RawParams(RawJson.Parse(big))));
    }

    [Theory]
    [InlineData("sum", "\"sum\"")]
    [InlineData("a\"b\\c\u0001é€", "\"a\\\"b\\\\c\\u0001é€\"")]
    public void WriteCall_SameMethodManyTimes_SameBytesFirstAndOnceRemembered(string method, string expectedName)
    {
        // The encoder remembers a method name it sees again (by the string's identity); the first sight goes through
        // Utf8JsonWriter. Both must write the same bytes, whatever the name holds, and so must a different string
        // instance with the same text, and one whose slot another name took in between.
        var copy = new string(method.AsSpan());
        var other = new string('x', 3);
        var expected = $"{{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":{expectedName},\"params\":[1]}}";
        foreach (var name in new[] { method, method, method, copy, other, method, copy, copy })
        {
            var text = Write(long.MaxValue, name, new RawParams(RawJson.Parse("[1]")));
            Assert.Equal(ReferenceEquals(name, other) ? expected.Replace(expectedName, "\"xxx\"") : expected, text);
            Assert.Equal(name, Assert.IsType<JsonRpcRequest>(JsonRpcMessage.Parse(text)).Method);
        }
    }

    [Fact]
    public void WriteCall_NoParams_NoParamsMember()
    {
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", Write(3, "ping", new RawParams(default)));
    }

    [Fact]
    public void WriteCall_LoneSurrogateInMethod_SameValidJsonFirstAndRemembered()
    {
        // Utf8JsonWriter writes a lone surrogate as an escaped U+FFFD rather than throwing; the remembered name must be the same.
        var bad = "m\ud800";
        var texts = Enumerable.Range(0, 3).Select(_ => Write(1, bad, new RawParams(default))).ToList();
        Assert.Equal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\\uFFFD\"}", texts[0]);
        Assert.All(texts, text => Assert.Equal(texts[0], text));
    }

    private static string Write<TParams>(long id, string method, TParams @params)
        where TParams : struct, IParamsSource
    {
        var buffer = MessageBuffer.Rent();
        try
        {
            MessageEncoder.WriteCall(buffer, id, method, @params);
            return Encoding.UTF8.GetString(buffer.WrittenSpan);
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }
}
