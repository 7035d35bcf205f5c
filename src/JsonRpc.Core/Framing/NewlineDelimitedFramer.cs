using System.Buffers;

namespace JsonRpc.Framing;

/// <summary>
/// One message per line: each message is followed by <c>\n</c>. On read, a <c>\r</c> before the <c>\n</c> is dropped and
/// blank lines (empty, or only spaces, tabs and <c>\r</c>) are skipped. The framing of StreamJsonRpc's
/// NewLineDelimitedMessageHandler, of MCP's stdio transport, and of most line-based JSON-RPC peers.
/// </summary>
/// <remarks>
/// <para>
/// Writing appends <c>\n</c> to the message. Compact JSON, as <see cref="Serialization.JsonRpcMessageWriter"/> writes it,
/// never contains a raw CR or LF (strings escape them); valid JSON can only hold them as whitespace between tokens, so
/// <see cref="WriteMessage"/> writes any it finds as spaces. A forwarded message that a peer sent indented therefore keeps
/// its meaning and cannot split a frame.
/// </para>
/// <para>
/// An instance remembers how far it has searched a line that is not complete yet, so a large message that arrives over
/// many reads is searched once, not once per read. Use one instance per connection; it is not thread-safe.
/// </para>
/// </remarks>
public sealed class NewlineDelimitedFramer : IJsonRpcFramer
{
    /// <summary>The default <see cref="MaxMessageSize"/>: 4 MiB.</summary>
    public const int DefaultMaxMessageSize = JsonRpcFramer.DefaultMaxMessageSize;

    private static ReadOnlySpan<byte> BlankBytes => " \t\r"u8;

    // Where the last search that found no newline started, how many bytes from there it searched, and the start of the
    // last segment it searched with that segment's offset. A later call whose buffer starts at the same place in the same
    // memory, and is at least as long, continues from there: bytes the caller has not consumed cannot change.
    private SequencePosition _searchStart;
    private long _searched;
    private SequencePosition _resumeAt;
    private long _resumeOffset;

    /// <summary>Creates a framer.</summary>
    /// <param name="maxMessageSize">The longest line accepted, in bytes, its terminator not counted.</param>
    public NewlineDelimitedFramer(int maxMessageSize = DefaultMaxMessageSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxMessageSize);
        MaxMessageSize = maxMessageSize;
    }

    /// <inheritdoc/>
    public int MaxMessageSize { get; }

    /// <inheritdoc/>
    /// <remarks>
    /// A line longer than <see cref="MaxMessageSize"/> fails as soon as the framer sees <see cref="MaxMessageSize"/> bytes
    /// followed by anything but a line terminator: a reader never needs more than <see cref="MaxMessageSize"/> + 2 bytes
    /// buffered to get a message or an error.
    /// </remarks>
    public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        while (true)
        {
            // No line that ends further on can be within the limit: MaxMessageSize bytes, then "\r\n".
            var window = Math.Min(buffer.Length, MaxMessageSize + 2L);
            var origin = buffer.Start;
            var originOffset = 0L;
            var from = 0L;
            if (_searched > 0 && _searched <= window && buffer.Start.Equals(_searchStart))
            {
                (origin, originOffset, from) = (_resumeAt, _resumeOffset, _searched);
            }

            var newline = SequenceSearch.IndexOf(buffer, (byte)'\n', from, window, ref origin, ref originOffset);
            if (newline < 0)
            {
                if (buffer.Length > MaxMessageSize
                    && (buffer.Length > MaxMessageSize + 1L
                        || SequenceSearch.ByteAt(buffer, MaxMessageSize, origin, originOffset) != (byte)'\r'))
                {
                    _searched = 0;
                    FramingThrowHelper.ThrowLineTooLarge(MaxMessageSize);
                }

                (_searchStart, _searched, _resumeAt, _resumeOffset) = (buffer.Start, window, origin, originOffset);
                message = default;
                return false;
            }

            _searched = 0;
            var length = newline > 0 && SequenceSearch.ByteAt(buffer, newline - 1, origin, originOffset) == (byte)'\r'
                ? newline - 1
                : newline;
            if (length > MaxMessageSize)
            {
                FramingThrowHelper.ThrowLineTooLarge(MaxMessageSize);
            }

            var line = buffer.Slice(buffer.Start, SequenceSearch.PositionAt(buffer, length, origin, originOffset));
            buffer = buffer.Slice(SequenceSearch.PositionAt(buffer, newline + 1, origin, originOffset));
            if (!SequenceSearch.ConsistsOf(line, BlankBytes))
            {
                message = line;
                return true;
            }
        }
    }

    /// <inheritdoc/>
    /// <remarks>Raw CR and LF in <paramref name="message"/> are written as spaces; see the class remarks.</remarks>
    public void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message)
    {
        ArgumentNullException.ThrowIfNull(output);
        while (true)
        {
            // Room for the terminator as well, so a small message goes out in one piece; a large one goes in chunks of
            // whatever the writer has, rather than forcing it to allocate one block of the whole size.
            var span = output.GetSpan(Math.Min(message.Length + 1, JsonRpcFramer.WriteChunkSize));
            var count = Math.Min(span.Length, message.Length);
            var chunk = span[..count];
            message[..count].CopyTo(chunk);
            if (chunk.IndexOfAny((byte)'\r', (byte)'\n') >= 0)
            {
                chunk.Replace((byte)'\r', (byte)' ');
                chunk.Replace((byte)'\n', (byte)' ');
            }

            message = message[count..];
            if (message.IsEmpty && count < span.Length)
            {
                span[count] = (byte)'\n';
                output.Advance(count + 1);
                return;
            }

            output.Advance(count);
        }
    }
}
