namespace JsonRpc.Core.Tests.Support;

/// <summary>Every public way to turn bytes into a <c>JsonRpcMessage</c>.</summary>
public enum ReadPath
{
    /// <summary><c>JsonRpcMessage.Parse(ReadOnlyMemory&lt;byte&gt;)</c>: values sliced from the caller's buffer.</summary>
    ParseMemory,

    /// <summary><c>JsonRpcMessage.Parse(ReadOnlySpan&lt;byte&gt;)</c>.</summary>
    ParseSpan,

    /// <summary><c>JsonRpcMessage.Parse(in ReadOnlySequence&lt;byte&gt;)</c> over 7-byte segments.</summary>
    ParseSequence,

    /// <summary><c>JsonRpcMessage.Parse(string)</c> (only for valid UTF-8 input).</summary>
    ParseString,

    /// <summary><c>JsonSerializer.Deserialize&lt;JsonRpcMessage&gt;</c> with default options (reflection).</summary>
    Serializer,

    /// <summary><c>JsonSerializer.Deserialize</c> through the source-generated <c>JsonRpcJsonContext.Default</c>.</summary>
    SerializerContext,

    /// <summary><c>JsonSerializer.Deserialize(Stream)</c> with a 16-byte buffer: the serializer reads ahead, then calls the converter.</summary>
    SerializerStream,

    /// <summary>
    /// <c>JsonSerializer.DeserializeAsync(PipeReader)</c> over a whole multi-segment sequence: the converter gets a
    /// multi-segment reader on its final block (its copying path).
    /// </summary>
    SerializerPipe,

    /// <summary><c>JsonSerializer.DeserializeAsync(PipeReader)</c> while a writer feeds the pipe 5 bytes at a time.</summary>
    SerializerPipeStreaming,
}
