using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text;

namespace JsonRpc.Framing;

/// <summary>Framing defaults, and the choice of framing from the first bytes a peer sends.</summary>
public static class JsonRpcFramer
{
    /// <summary>The default <see cref="IJsonRpcFramer.MaxMessageSize"/>: 4 MiB.</summary>
    public const int DefaultMaxMessageSize = 4 * 1024 * 1024;

    // The most a framer asks an output for at once: a pipe's default segment size.
    internal const int WriteChunkSize = 4096;

    // The longest prefix Detect may need to see before it can decide.
    private const int LongestPrefix = 15;

    /// <summary>
    /// Chooses the framing of a connection from the first bytes it received: <see cref="ContentLengthFramer"/> when they
    /// start with a <c>Content-Length:</c> or <c>Content-Type:</c> header (any letter case, as LSP allows either header
    /// first), otherwise <see cref="NewlineDelimitedFramer"/>.
    /// </summary>
    /// <param name="firstBytes">What the connection has received so far; not consumed.</param>
    /// <param name="maxMessageSize">The <see cref="IJsonRpcFramer.MaxMessageSize"/> of the framer made.</param>
    /// <param name="framer">A new framer for this connection, or null when undecided.</param>
    /// <returns>
    /// False, with no framer, while too few bytes have arrived to decide (at most 15 are ever needed; a connection that
    /// starts with <c>{</c> or <c>[</c> is decided at its first byte).
    /// </returns>
    public static bool Detect(in ReadOnlySequence<byte> firstBytes, int maxMessageSize, [NotNullWhen(true)] out IJsonRpcFramer? framer)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxMessageSize);
        Span<byte> head = stackalloc byte[LongestPrefix];
        head = head[..(int)Math.Min(firstBytes.Length, LongestPrefix)];
        firstBytes.Slice(0, head.Length).CopyTo(head);

        var lengthHeader = Match(head, "Content-Length:"u8);
        var typeHeader = Match(head, "Content-Type:"u8);
        if (lengthHeader == PrefixMatch.Full || typeHeader == PrefixMatch.Full)
        {
            framer = new ContentLengthFramer(maxMessageSize);
            return true;
        }

        if (head.IsEmpty || lengthHeader == PrefixMatch.Partial || typeHeader == PrefixMatch.Partial)
        {
            framer = null;
            return false;
        }

        framer = new NewlineDelimitedFramer(maxMessageSize);
        return true;
    }

    private static PrefixMatch Match(ReadOnlySpan<byte> head, ReadOnlySpan<byte> prefix)
        => head.Length >= prefix.Length
            ? Ascii.EqualsIgnoreCase(head[..prefix.Length], prefix) ? PrefixMatch.Full : PrefixMatch.None
            : Ascii.EqualsIgnoreCase(head, prefix[..head.Length]) ? PrefixMatch.Partial : PrefixMatch.None;

    private enum PrefixMatch
    {
        None,
        Partial,
        Full,
    }
}
