using System.Text.Json;
using BenchmarkDotNet.Attributes;
using JsonRpc.Benchmarks.Baseline;
using JsonRpc.Benchmarks.Messages;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using McpMessage = ModelContextProtocol.Protocol.JsonRpcMessage;

namespace JsonRpc.Benchmarks;

/// <summary>
/// Reading one message from its UTF-8 bytes: the old two-pass converter (the baseline), the same without
/// <c>GetRawText</c>, ours through <see cref="JsonSerializer"/> and <see cref="JsonRpcMessage.Parse(ReadOnlyMemory{byte}, JsonRpcReaderOptions?)"/>,
/// our allocation-free reader, the MCP C# SDK's converter and StreamJsonRpc's formatter, on the same bytes.
/// </summary>
public class MessageReadBenchmarks : SampleCaseBenchmarks
{
    private readonly StreamJsonRpcSerializer _streamJsonRpc = new();
    private byte[] _bytes = [];
    private ReadOnlyMemory<byte> _memory;

    [GlobalSetup]
    public void Setup()
    {
        _bytes = SampleMessages.Get(Kind, Payload);
        _memory = _bytes;
        SampleCheck.ReadersAgree(this, Kind);
    }

    [GlobalCleanup]
    public void Cleanup() => _streamJsonRpc.Dispose();

    /// <summary>JsonDocument, TryGetProperty for the kind, GetRawText, then a second deserialization of that string.</summary>
    [Benchmark(Baseline = true, Description = "Baseline: JsonDocument + GetRawText")]
    public BaselineMessage? BaselineGetRawText() => JsonSerializer.Deserialize(_bytes, BaselineSerializer.RawText);

    /// <summary>The same, but the second deserialization reads the JsonElement instead of a string.</summary>
    [Benchmark(Description = "JsonDocument + Deserialize(JsonElement)")]
    public BaselineMessage? BaselineFromElement() => JsonSerializer.Deserialize(_bytes, BaselineSerializer.Element);

    /// <summary>Ours through the serializer: <c>JsonSerializer.Deserialize&lt;JsonRpcMessage&gt;(bytes)</c>.</summary>
    [Benchmark(Description = "Ours: JsonSerializer.Deserialize")]
    public JsonRpcMessage? OursJsonSerializer() => JsonSerializer.Deserialize<JsonRpcMessage>(_bytes);

    /// <summary>
    /// Ours through the serializer with our source-generated metadata (<see cref="JsonRpcJsonContext"/>), as the
    /// baseline and the MCP SDK are called here: with a resolved <c>JsonTypeInfo</c>, not a lookup per call.
    /// </summary>
    [Benchmark(Description = "Ours: JsonSerializer + JsonRpcJsonContext")]
    public JsonRpcMessage? OursJsonSerializerContext() => JsonSerializer.Deserialize(_bytes, JsonRpcJsonContext.Default.JsonRpcMessage);

    /// <summary>Ours without the serializer: params / result / data become slices of the caller's buffer.</summary>
    [Benchmark(Description = "Ours: JsonRpcMessage.Parse")]
    public JsonRpcMessage OursParse() => JsonRpcMessage.Parse(_memory);

    /// <summary>Our allocation-free reader: kind, id, method and where the values lie, no objects.</summary>
    [Benchmark(Description = "Ours: JsonRpcMessageReader.TryRead")]
    public JsonRpcMessageKind OursReader()
    {
        JsonRpcMessageReader.TryRead(_bytes, out var info, out _);
        return info.Kind;
    }

    /// <summary>
    /// Not a contender: <see cref="Utf8JsonReader"/> reading every token and doing nothing else, the one pass every
    /// reader here makes at least once. What ours spends beyond it is the strict checks and building the message.
    /// </summary>
    [Benchmark(Description = "Floor: Utf8JsonReader alone")]
    public int ReaderAlone()
    {
        var reader = new Utf8JsonReader(_bytes);
        var tokens = 0;
        while (reader.Read())
        {
            tokens++;
        }

        return tokens;
    }

    /// <summary>The MCP C# SDK's converter (ModelContextProtocol.Core), as its transports call it.</summary>
    [Benchmark(Description = "MCP SDK: JsonSerializer.Deserialize")]
    public McpMessage? Mcp() => JsonSerializer.Deserialize(_bytes, McpSerializer.Message);

    /// <summary>StreamJsonRpc 2.26's <c>SystemTextJsonFormatter.Deserialize</c>, its document released after, as <c>JsonRpc</c> does.</summary>
    [Benchmark(Description = "StreamJsonRpc: SystemTextJsonFormatter.Deserialize")]
    public StreamJsonRpc.Protocol.JsonRpcMessage StreamJsonRpc() => _streamJsonRpc.ReadAndRelease(_bytes);

    /// <summary>The message StreamJsonRpc read, kept whole for the checks.</summary>
    internal StreamJsonRpc.Protocol.JsonRpcMessage StreamJsonRpcKept() => _streamJsonRpc.Read(_bytes);
}
