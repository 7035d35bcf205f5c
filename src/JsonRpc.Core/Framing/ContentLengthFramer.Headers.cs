using System.Buffers;
using System.Text;

namespace JsonRpc.Framing;

/// <content>Parsing of one header line.</content>
public sealed partial class ContentLengthFramer
{
    private static readonly SearchValues<byte> TokenBytes =
        SearchValues.Create("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8);

    // RFC 9110 field values: visible characters, spaces, tabs and obs-text; no other control characters.
    private static readonly SearchValues<byte> ControlBytes = SearchValues.Create(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127]);

    private static ReadOnlySpan<byte> Whitespace => " \t"u8;

    private void ReadHeaderLine(ReadOnlySpan<byte> line, ref HeaderState headers)
    {
        var colon = line.IndexOf((byte)':');
        if (colon < 0)
        {
            FramingThrowHelper.ThrowInvalidHeader("a header line has no ':'", line);
        }

        var name = line[..colon];
        if (name.IsEmpty || name.IndexOfAnyExcept(TokenBytes) >= 0)
        {
            FramingThrowHelper.ThrowInvalidHeader(
                line[0] is (byte)' ' or (byte)'\t'
                    ? "a header line starts with whitespace (folded header lines are not supported)"
                    : "a header name is empty or holds a character other than letters, digits and !#$%&'*+-.^_`|~",
                line);
        }

        var value = line[(colon + 1)..].Trim(Whitespace);
        if (value.IndexOfAny(ControlBytes) >= 0)
        {
            FramingThrowHelper.ThrowInvalidHeader("a header value holds a control character", line);
        }

        if (Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
        {
            if (headers.HasContentLength)
            {
                FramingThrowHelper.ThrowInvalidHeader("Content-Length appears more than once", line);
            }

            headers.ContentLength = ParseContentLength(value, line);
            headers.HasContentLength = true;
        }
        else if (Ascii.EqualsIgnoreCase(name, "Content-Type"u8))
        {
            if (headers.HasContentType)
            {
                FramingThrowHelper.ThrowInvalidHeader("Content-Type appears more than once", line);
            }

            CheckCharset(value, line);
            headers.HasContentType = true;
        }
    }

    private long ParseContentLength(ReadOnlySpan<byte> value, ReadOnlySpan<byte> line)
    {
        if (value.IsEmpty || value.IndexOfAnyExceptInRange((byte)'0', (byte)'9') >= 0)
        {
            FramingThrowHelper.ThrowInvalidHeader("Content-Length is not a decimal number of bytes", line);
        }

        long length = 0;
        foreach (var digit in value)
        {
            // length <= MaxMessageSize <= int.MaxValue here, so this cannot overflow.
            length = (length * 10) + (digit - '0');
            if (length > MaxMessageSize)
            {
                FramingThrowHelper.ThrowContentTooLarge(value, MaxMessageSize);
            }
        }

        return length;
    }

    // media-type *( OWS ";" OWS name "=" value ): only a charset parameter matters.
    private static void CheckCharset(ReadOnlySpan<byte> contentType, ReadOnlySpan<byte> line)
    {
        var rest = contentType;
        var semicolon = rest.IndexOf((byte)';');
        while (semicolon >= 0)
        {
            rest = rest[(semicolon + 1)..];
            semicolon = rest.IndexOf((byte)';');
            var parameter = semicolon < 0 ? rest : rest[..semicolon];
            var equals = parameter.IndexOf((byte)'=');
            if (equals < 0 || !Ascii.EqualsIgnoreCase(parameter[..equals].Trim(Whitespace), "charset"u8))
            {
                continue;
            }

            var charset = parameter[(equals + 1)..].Trim(Whitespace);
            if (charset.Length >= 2 && charset[0] == (byte)'"' && charset[^1] == (byte)'"')
            {
                charset = charset[1..^1];
            }

            if (!Ascii.EqualsIgnoreCase(charset, "utf-8"u8) && !Ascii.EqualsIgnoreCase(charset, "utf8"u8))
            {
                FramingThrowHelper.ThrowInvalidHeader("the charset is not UTF-8, the only encoding supported", line);
            }
        }
    }

    private struct HeaderState
    {
        public long ContentLength;
        public bool HasContentLength;
        public bool HasContentType;
    }
}
