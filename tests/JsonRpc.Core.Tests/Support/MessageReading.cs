using System.IO.Pipelines;

namespace JsonRpc.Core.Tests.Support;

/// <summary>Reads bytes into a message through any <see cref="ReadPath"/>.</summary>
internal static class MessageReading
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    public static ReadPath[] AllPaths { get; } = Enum.GetValues<ReadPath>();

    /// <summary>
    /// True for the paths where the serializer checks the JSON syntax itself before it calls the converter (it reads
    /// ahead to buffer the whole value): a syntax error there is the serializer's plain <see cref="JsonException"/>.
    /// </summary>
    public static bool SerializerReadsAhead(ReadPath path) => path is ReadPath.SerializerStream or ReadPath.SerializerPipeStreaming;

    /// <summary>True for the paths that go through <see cref="JsonSerializer"/> and so through the converter.</summary>
    public static bool IsSerializer(ReadPath path) => path >= ReadPath.Serializer;

    /// <summary>True when the path can take these bytes (the string path needs valid UTF-8).</summary>
    public static bool Accepts(ReadPath path, ReadOnlySpan<byte> utf8) => path != ReadPath.ParseString || System.Text.Unicode.Utf8.IsValid(utf8);

    public static JsonRpcMessage Read(ReadPath path, byte[] utf8, int? maxDepth = null)
    {
        // Made only for the Parse paths: the serializer's MaxDepth may lie beyond JsonRpcReaderOptions' range.
        JsonRpcReaderOptions? ReaderOptions() => maxDepth is { } depth ? new JsonRpcReaderOptions { MaxDepth = depth } : null;
        var serializerOptions = new JsonSerializerOptions { MaxDepth = maxDepth ?? 0 };
        var context = maxDepth is null ? JsonRpcJsonContext.Default : new JsonRpcJsonContext(serializerOptions);
        switch (path)
        {
            case ReadPath.ParseMemory:
                return JsonRpcMessage.Parse(new ReadOnlyMemory<byte>(utf8), ReaderOptions());
            case ReadPath.ParseSpan:
                return JsonRpcMessage.Parse(new ReadOnlySpan<byte>(utf8), ReaderOptions());
            case ReadPath.ParseSequence:
                return JsonRpcMessage.Parse(Utf8Sequence.Split(utf8, 7), ReaderOptions());
            case ReadPath.ParseString:
                return JsonRpcMessage.Parse(new UTF8Encoding(false, true).GetString(utf8), ReaderOptions());
            case ReadPath.Serializer:
                return JsonSerializer.Deserialize<JsonRpcMessage>(utf8, serializerOptions)!;
            case ReadPath.SerializerContext:
                return JsonSerializer.Deserialize(utf8, context.JsonRpcMessage)!;
            case ReadPath.SerializerStream:
            {
                using var stream = new MemoryStream(utf8);
                return JsonSerializer.Deserialize(stream, new JsonRpcJsonContext(new JsonSerializerOptions(serializerOptions) { DefaultBufferSize = 16 }).JsonRpcMessage)!;
            }

            case ReadPath.SerializerPipe:
            {
                var reader = PipeReader.Create(Utf8Sequence.Split(utf8, 7));
                return Wait(JsonSerializer.DeserializeAsync(reader, context.JsonRpcMessage).AsTask())!;
            }

            default:
                return Wait(ReadFedPipeAsync(utf8, context))!;
        }
    }

    private static async Task<JsonRpcMessage?> ReadFedPipeAsync(byte[] utf8, JsonRpcJsonContext context)
    {
        var pipe = new Pipe(new PipeOptions(minimumSegmentSize: 16, useSynchronizationContext: false));
        var feeding = FeedAsync(pipe.Writer, utf8);
        try
        {
            return await JsonSerializer.DeserializeAsync(pipe.Reader, context.JsonRpcMessage).AsTask().WaitAsync(Timeout);
        }
        finally
        {
            await pipe.Reader.CompleteAsync();
            await feeding.WaitAsync(Timeout);
        }
    }

    private static async Task FeedAsync(PipeWriter writer, byte[] utf8)
    {
        try
        {
            for (var start = 0; start < utf8.Length; start += 5)
            {
                await Task.Yield();
                var result = await writer.WriteAsync(utf8.AsMemory(start, Math.Min(5, utf8.Length - start)));
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        finally
        {
            await writer.CompleteAsync();
        }
    }

    private static T Wait<T>(Task<T> task) => task.WaitAsync(Timeout).GetAwaiter().GetResult();
}
