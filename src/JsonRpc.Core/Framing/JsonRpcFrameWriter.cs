using System.Buffers;
using JsonRpc.Buffers;

namespace JsonRpc.Framing;

/// <summary>
/// Holds one outgoing message while it is written, then frames it into the connection's output with
/// <see cref="CommitTo"/>. It is an <see cref="IBufferWriter{T}"/>, so <see cref="System.Text.Json.Utf8JsonWriter"/> and
/// <see cref="Serialization.JsonRpcMessageWriter"/> write into it directly.
/// </summary>
/// <remarks>
/// <para>One per connection, used by one writer at a time:</para>
/// <code><![CDATA[
/// using var frame = new JsonRpcFrameWriter(framer);
/// ...
/// JsonRpcMessageWriter.Write(frame, message);   // or: jsonWriter.Reset(frame); ...; jsonWriter.Flush();
/// frame.CommitTo(output);                       // output: the connection's PipeWriter
/// await output.FlushAsync(ct);                  // once per batch of messages
/// ]]></code>
/// <para>
/// Why one copy rather than writing straight into the pipe: a <c>Content-Length</c> header comes before a payload whose
/// length is known only once it is written. Reserving room for the header and filling it in afterwards would mean
/// writing into memory already passed to <see cref="IBufferWriter{T}.Advance"/>, which the contract forbids, and
/// padding the number, which not every peer accepts. Buffering also means a message whose serialization fails half-way
/// is dropped with <see cref="Reset"/>, and the output never holds half a message. The copy is of bytes just written and
/// still in cache.
/// </para>
/// <para>
/// The buffer is rented from <see cref="ArrayPool{T}.Shared"/> when the first byte is written and returned by
/// <see cref="CommitTo"/>, <see cref="Reset"/> and <see cref="Dispose"/>: an idle connection holds none, and writing
/// allocates nothing once the pool is warm.
/// </para>
/// </remarks>
public sealed class JsonRpcFrameWriter : IBufferWriter<byte>, IDisposable
{
    private const int MinimumBufferSize = 4096;

    private PooledByteBuffer _storage;

    /// <summary>Creates a writer that frames with <paramref name="framer"/>.</summary>
    public JsonRpcFrameWriter(IJsonRpcFramer framer)
    {
        ArgumentNullException.ThrowIfNull(framer);
        Framer = framer;
    }

    /// <summary>The framing that <see cref="CommitTo"/> applies.</summary>
    public IJsonRpcFramer Framer { get; }

    /// <summary>How many bytes of the current message have been written.</summary>
    public int WrittenCount => _storage.WrittenCount;

    /// <summary>The current message's bytes so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _storage.WrittenSpan;

    /// <inheritdoc/>
    public void Advance(int count) => _storage.Advance(count);

    /// <inheritdoc/>
    public Memory<byte> GetMemory(int sizeHint = 0) => _storage.GetMemory(sizeHint, MinimumBufferSize);

    /// <inheritdoc/>
    public Span<byte> GetSpan(int sizeHint = 0) => _storage.GetSpan(sizeHint, MinimumBufferSize);

    /// <summary>
    /// Writes the current message, framed, into <paramref name="output"/>, and starts a new one (also when writing fails).
    /// </summary>
    /// <exception cref="InvalidOperationException">Nothing has been written: no JSON-RPC message is empty.</exception>
    public void CommitTo(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (_storage.WrittenCount == 0)
        {
            throw new InvalidOperationException("No message has been written to commit.");
        }

        try
        {
            Framer.WriteMessage(output, WrittenSpan);
        }
        finally
        {
            Reset();
        }
    }

    /// <summary>Drops the current message, e.g. after its serialization failed, and returns the buffer to the pool.</summary>
    public void Reset() => _storage.Release();

    /// <summary>Drops the current message and returns the buffer to the pool.</summary>
    public void Dispose() => Reset();
}
