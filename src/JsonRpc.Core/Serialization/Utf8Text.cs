using System.Text;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>Turns JSON text given as a .NET string into UTF-8 without silently repairing it.</summary>
internal static class Utf8Text
{
    private static readonly UTF8Encoding Strict = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// The UTF-8 bytes of <paramref name="json"/>. A lone surrogate cannot be encoded: rather than replace it with
    /// U+FFFD (and so read something the sender never wrote), it is a Parse error, as invalid UTF-8 is.
    /// </summary>
    /// <exception cref="JsonRpcProtocolException">The string holds a lone surrogate.</exception>
    public static byte[] GetBytes(string json)
    {
        try
        {
            return Strict.GetBytes(json);
        }
        catch (EncoderFallbackException)
        {
            throw new JsonRpcProtocolException(JsonRpcErrorCodes.ParseError, "The text holds a lone surrogate, which is not valid Unicode.");
        }
    }
}
