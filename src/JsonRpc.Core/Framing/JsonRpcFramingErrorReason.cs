namespace JsonRpc.Framing;

/// <summary>Why a framer refused its input (<see cref="JsonRpcFramingException.Reason"/>).</summary>
public enum JsonRpcFramingErrorReason
{
    /// <summary>A message is, or is declared to be, larger than the framer's <see cref="IJsonRpcFramer.MaxMessageSize"/>.</summary>
    MessageTooLarge = 1,

    /// <summary>A <c>Content-Length</c> header block did not end within <see cref="ContentLengthFramer.MaxHeaderSize"/> bytes.</summary>
    HeaderTooLarge = 2,

    /// <summary>
    /// A header block is malformed: a line without <c>:</c> or not ending in CRLF, an invalid name or value, a missing,
    /// duplicate or non-numeric <c>Content-Length</c>, a duplicate <c>Content-Type</c> or a charset other than UTF-8.
    /// </summary>
    InvalidHeader = 3,
}
