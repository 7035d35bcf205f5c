using System.Buffers;
using System.Buffers.Text;

namespace JsonRpc.Framing;

/// <summary>
/// Each message is preceded by a header block, as LSP and StreamJsonRpc's HeaderDelimitedMessageHandler frame it:
/// <c>Content-Length: 52\r\n\r\n{"jsonrpc":"2.0",...}</c>.
/// </summary>
/// <remarks>
/// <para>
/// Reading: header lines are <c>Name: value</c> ending in CRLF, and an empty line ends the block. Names are matched in
/// any letter case; <c>Content-Length</c> (decimal bytes of the message) is required, once; <c>Content-Type</c> is
/// optional, once, and only its <c>charset</c> parameter is checked (UTF-8, or <c>utf8</c> as LSP allows); other
/// headers are ignored. Anything else fails with <see cref="JsonRpcFramingErrorReason.InvalidHeader"/>. A
/// <c>Content-Length</c> over <see cref="MaxMessageSize"/> fails as soon as its line has arrived, before the message;
/// a header block longer than <see cref="MaxHeaderSize"/> fails once that many bytes have arrived.
/// </para>
/// <para>Writing: <c>Content-Length: N\r\n\r\n</c> then the message.</para>
/// </remarks>
public sealed partial class ContentLengthFramer : IJsonRpcFramer
{
    /// <summary>The default <see cref="MaxMessageSize"/>: 4 MiB.</summary>
    public const int DefaultMaxMessageSize = JsonRpcFramer.DefaultMaxMessageSize;

    /// <summary>The longest header block accepted, in bytes, its final empty line included.</summary>
    public const int MaxHeaderSize = 4096;

    // LengthPrefix + int.MaxValue's 10 digits + HeaderEnd.
    private const int MaxWrittenHeaderSize = 30;

    private static ReadOnlySpan<byte> LengthPrefix => "Content-Length: "u8;

    private static ReadOnlySpan<byte> HeaderEnd => "\r\n\r\n"u8;

    /// <summary>Creates a framer.</summary>
    /// <param name="maxMessageSize">The largest <c>Content-Length</c> accepted, in bytes.</param>
    public ContentLengthFramer(int maxMessageSize = DefaultMaxMessageSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxMessageSize);
        MaxMessageSize = maxMessageSize;
    }

    /// <inheritdoc/>
    public int MaxMessageSize { get; }

    /// <inheritdoc/>
    public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
    {
        // Header lines are parsed on every call, the incomplete block included, so that a bad or too large
        // Content-Length fails as soon as its line is in; the block is short, so this costs little.
        var reader = new SequenceReader<byte>(buffer.Length > MaxHeaderSize ? buffer.Slice(0, MaxHeaderSize) : buffer);
        var headers = default(HeaderState);
        while (true)
        {
            if (!reader.TryReadTo(out ReadOnlySequence<byte> line, (byte)'\n'))
            {
                if (buffer.Length >= MaxHeaderSize)
                {
                    FramingThrowHelper.ThrowHeaderTooLarge(MaxHeaderSize);
                }

                message = default;
                return false;
            }

            var endOfBlock = line.IsSingleSegment ? ReadLine(line.FirstSpan, ref headers) : ReadSplitLine(line, ref headers);
            if (endOfBlock)
            {
                break;
            }
        }

        if (!headers.HasContentLength)
        {
            FramingThrowHelper.ThrowMissingContentLength();
        }

        if (buffer.Length - reader.Consumed < headers.ContentLength)
        {
            message = default;
            return false;
        }

        message = buffer.Slice(reader.Position, headers.ContentLength);
        buffer = buffer.Slice(message.End);
        return true;
    }

    /// <inheritdoc/>
    public void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message)
    {
        ArgumentNullException.ThrowIfNull(output);
        var span = output.GetSpan(Math.Min(MaxWrittenHeaderSize + message.Length, JsonRpcFramer.WriteChunkSize));
        LengthPrefix.CopyTo(span);
        Utf8Formatter.TryFormat(message.Length, span[LengthPrefix.Length..], out var digits);
        HeaderEnd.CopyTo(span[(LengthPrefix.Length + digits)..]);
        var headerSize = LengthPrefix.Length + digits + HeaderEnd.Length;

        var count = Math.Min(span.Length - headerSize, message.Length);
        message[..count].CopyTo(span[headerSize..]);
        output.Advance(headerSize + count);
        if (count < message.Length)
        {
            output.Write(message[count..]);
        }
    }

    // A line that straddles segments is parsed from a copy: it is at most a header block long.
    private bool ReadSplitLine(in ReadOnlySequence<byte> line, ref HeaderState headers)
    {
        Span<byte> copy = stackalloc byte[MaxHeaderSize];
        copy = copy[..(int)line.Length];
        line.CopyTo(copy);
        return ReadLine(copy, ref headers);
    }

    // One line, its LF excluded; true for the empty line that ends the block.
    private bool ReadLine(ReadOnlySpan<byte> line, ref HeaderState headers)
    {
        if (line.IsEmpty || line[^1] != (byte)'\r')
        {
            FramingThrowHelper.ThrowInvalidHeader("a header line must end with CRLF, not a bare LF", line);
        }

        if (line.Length == 1)
        {
            return true;
        }

        ReadHeaderLine(line[..^1], ref headers);
        return false;
    }
}
