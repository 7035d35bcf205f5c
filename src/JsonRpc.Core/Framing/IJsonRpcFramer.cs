using System.Buffers;

namespace JsonRpc.Framing;

/// <summary>
/// Cuts JSON-RPC messages out of a byte stream and frames messages for writing. Reading never copies: a message is a
/// slice of the buffer it was read from.
/// </summary>
/// <remarks>
/// <para>
/// A framer belongs to one connection, like the <see cref="System.IO.Pipelines.PipeReader"/> it reads from: it may
/// remember how far it has searched an incomplete message, and it is not thread-safe.
/// <see cref="JsonRpcFramer.Detect"/> makes a new one for each connection.
/// </para>
/// <para>A read loop over a <see cref="System.IO.Pipelines.PipeReader"/>:</para>
/// <code><![CDATA[
/// while (true)
/// {
///     var result = await input.ReadAsync(ct);
///     var buffer = result.Buffer;
///     try
///     {
///         if (result.IsCanceled) break;
///         while (framer.TryReadMessage(ref buffer, out var message))
///         {
///             Handle(message); // copy what must outlive AdvanceTo
///         }
///         if (result.IsCompleted)
///         {
///             if (!buffer.IsEmpty) throw new InvalidDataException("Connection ended in the middle of a message.");
///             break;
///         }
///     }
///     finally
///     {
///         input.AdvanceTo(buffer.Start, buffer.End);
///     }
/// }
/// ]]></code>
/// </remarks>
public interface IJsonRpcFramer
{
    /// <summary>
    /// The largest message, in bytes, that <see cref="TryReadMessage"/> accepts (framing bytes such as headers and line
    /// terminators not counted). A larger one fails as soon as it can be seen to be larger, before it is buffered whole.
    /// </summary>
    int MaxMessageSize { get; }

    /// <summary>
    /// Slices the first complete message off the front of <paramref name="buffer"/>.
    /// </summary>
    /// <param name="buffer">
    /// The unread input. On success it is advanced past the message and its framing. On failure it may have been advanced
    /// past bytes that carry no message (blank lines), never past part of one.
    /// </param>
    /// <param name="message">The message's bytes: a slice of <paramref name="buffer"/>, valid until the caller consumes them.</param>
    /// <returns>
    /// True when a message was read; false when more input is needed: pass <c>buffer.Start</c> as consumed and
    /// <c>buffer.End</c> as examined to <see cref="System.IO.Pipelines.PipeReader.AdvanceTo(SequencePosition, SequencePosition)"/>.
    /// </returns>
    /// <exception cref="JsonRpcFramingException">The input is too large or its framing is malformed.</exception>
    bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message);

    /// <summary>Writes <paramref name="message"/>, one complete JSON-RPC message or batch in UTF-8, framed.</summary>
    /// <remarks>
    /// To write a message that <see cref="System.Text.Json.Utf8JsonWriter"/> produces, write it into a
    /// <see cref="JsonRpcFrameWriter"/> and call <see cref="JsonRpcFrameWriter.CommitTo"/>.
    /// </remarks>
    void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message);
}
