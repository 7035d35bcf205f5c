using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Baseline;
using JsonRpc.Benchmarks.Messages;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using McpMessage = ModelContextProtocol.Protocol.JsonRpcMessage;

namespace JsonRpc.Benchmarks;

/// <summary>
/// Writing one message into a reused <see cref="IBufferWriter{T}"/>: the baseline's model through
/// <see cref="JsonSerializer"/> (source-generated), ours through <see cref="JsonRpcMessageWriter"/>, the MCP C# SDK's
/// model through its serializer options (every one of these with the same <see cref="JsonWriterOptions"/>), and
/// StreamJsonRpc's <c>SystemTextJsonFormatter</c> with its own.
/// </summary>
public class MessageWriteBenchmarks : SampleCaseBenchmarks
{
    private readonly ArrayBufferWriter<byte> _buffer = new(4096);
    private readonly Utf8JsonWriter _writer = new(Stream.Null, JsonRpcMessageWriter.WriterOptions);
    private BaselineMessage _baseline = null!;
    private JsonRpcMessage _ours = null!;
    private McpMessage _mcp = null!;
    private readonly StreamJsonRpcSerializer _streamJsonRpc = new();
    private StreamJsonRpc.Protocol.JsonRpcMessage _streamJsonRpcMessage = null!;

    [GlobalSetup]
    public void Setup()
    {
        var bytes = SampleMessages.Get(Kind, Payload);
        _baseline = JsonSerializer.Deserialize(bytes, BaselineSerializer.Element)!;
        _ours = JsonRpcMessage.Parse(bytes.AsSpan());
        _mcp = JsonSerializer.Deserialize(bytes, McpSerializer.Message)!;
        _streamJsonRpcMessage = _streamJsonRpc.From(_baseline);
        SampleCheck.WritersAgree(this, bytes);
    }

    [GlobalCleanup]
    public void Cleanup() => _streamJsonRpc.Dispose();

    [Benchmark(Baseline = true, Description = "Baseline model: JsonSerializer.Serialize")]
    public int Baseline()
    {
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        JsonSerializer.Serialize(_writer, _baseline, BaselineSerializer.RawText);
        return _buffer.WrittenCount;
    }

    [Benchmark(Description = "Ours: JsonRpcMessageWriter.Write")]
    public int Ours()
    {
        _buffer.ResetWrittenCount();
        JsonRpcMessageWriter.Write(_buffer, _ours);
        return _buffer.WrittenCount;
    }

    [Benchmark(Description = "MCP SDK: JsonSerializer.Serialize")]
    public int Mcp()
    {
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        JsonSerializer.Serialize(_writer, _mcp, McpSerializer.Message);
        return _buffer.WrittenCount;
    }

    [Benchmark(Description = "StreamJsonRpc: SystemTextJsonFormatter.Serialize")]
    public int StreamJsonRpc()
    {
        _buffer.ResetWrittenCount();
        _streamJsonRpc.Write(_buffer, _streamJsonRpcMessage);
        return _buffer.WrittenCount;
    }

    /// <summary>The bytes the last call wrote.</summary>
    internal ReadOnlySpan<byte> Written => _buffer.WrittenSpan;
}
