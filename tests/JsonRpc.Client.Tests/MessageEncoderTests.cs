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
        var buffer = MessageBuffer.Rent();
        try
        {
            MessageEncoder.WriteCall(buffer, 7, "m", new RawParams(RawJson.FromUtf8(Encoding.UTF8.GetBytes(value))));
            Assert.Equal($"{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":{expected}}}", Encoding.UTF8.GetString(buffer.WrittenSpan));
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }

    [Fact]
    public void WriteCall_NotificationWithEscapedMethod_HasNoIdAndValidJson()
    {
        var buffer = MessageBuffer.Rent();
        try
        {
            MessageEncoder.WriteCall(buffer, 0, "a\"b\né", new TypedParams<Point>(new Point(1, 2), TestJsonContext.Default.Point));
            var text = Encoding.UTF8.GetString(buffer.WrittenSpan);
            Assert.Equal("{\"jsonrpc\":\"2.0\",\"method\":\"a\\\"b\\né\",\"params\":{\"x\":1,\"y\":2}}", text);
            var message = Assert.IsType<JsonRpcNotification>(JsonRpcMessage.Parse(text));
            Assert.Equal("a\"b\né", message.Method);
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }

    [Fact]
    public void WriteCall_LargeParams_GrowsBuffer()
    {
        var big = "[" + string.Join(",", Enumerable.Repeat("\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"", 5000)) + "]";
        var buffer = MessageBuffer.Rent();
        try
        {
            MessageEncoder.WriteCall(buffer, 1, "m", new RawParams(RawJson.Parse(big)));
            Assert.EndsWith(big + "}", Encoding.UTF8.GetString(buffer.WrittenSpan));
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }
}
