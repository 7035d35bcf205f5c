using System.Diagnostics.CodeAnalysis;
using System.Text;

namespace JsonRpc.Framing;

/// <summary>Builds and throws framing errors out of line, so that the read paths stay small.</summary>
internal static class FramingThrowHelper
{
    private const int MaxQuotedBytes = 64;

    [DoesNotReturn]
    public static void ThrowLineTooLarge(int maxMessageSize)
        => throw new JsonRpcFramingException(
            JsonRpcFramingErrorReason.MessageTooLarge,
            $"A message is larger than the maximum of {maxMessageSize} bytes: no newline within the limit.");

    [DoesNotReturn]
    public static void ThrowContentTooLarge(ReadOnlySpan<byte> declared, int maxMessageSize)
        => throw new JsonRpcFramingException(
            JsonRpcFramingErrorReason.MessageTooLarge,
            $"A message declares Content-Length: {Quote(declared)}, more than the maximum of {maxMessageSize} bytes.");

    [DoesNotReturn]
    public static void ThrowHeaderTooLarge(int maxHeaderSize)
        => throw new JsonRpcFramingException(
            JsonRpcFramingErrorReason.HeaderTooLarge,
            $"A header block did not end (with an empty line) within {maxHeaderSize} bytes.");

    [DoesNotReturn]
    public static void ThrowInvalidHeader(string problem, ReadOnlySpan<byte> line)
        => throw new JsonRpcFramingException(
            JsonRpcFramingErrorReason.InvalidHeader,
            $"Invalid message header: {problem} (in \"{Quote(line)}\").");

    [DoesNotReturn]
    public static void ThrowMissingContentLength()
        => throw new JsonRpcFramingException(
            JsonRpcFramingErrorReason.InvalidHeader,
            "Invalid message header: the header block has no Content-Length.");

    /// <summary>Peer bytes made safe for a log line: printable ASCII as is, anything else as <c>\xNN</c>, cut short.</summary>
    internal static string Quote(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder(Math.Min(bytes.Length, MaxQuotedBytes) + 8);
        foreach (var b in bytes.Length > MaxQuotedBytes ? bytes[..MaxQuotedBytes] : bytes)
        {
            if (b is >= 0x20 and < 0x7F and not (byte)'\\' and not (byte)'"')
            {
                text.Append((char)b);
            }
            else
            {
                text.Append("\\x").Append(b.ToString("X2", System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        return bytes.Length > MaxQuotedBytes ? text.Append("...").ToString() : text.ToString();
    }
}
