namespace JsonRpc.Framing;

/// <summary>
/// The input cannot be cut into messages: it is too large or its framing is malformed. The stream cannot be resynchronized,
/// so the connection should answer with an error if it can and close.
/// </summary>
/// <remarks>
/// It derives from <see cref="Exception"/>: <see cref="InvalidDataException"/>, which pipe read loops conventionally throw
/// for bad input, is sealed, and an <see cref="IOException"/> would be caught as a lost connection, which gets no answer.
/// </remarks>
public sealed class JsonRpcFramingException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="reason">Why the input was refused.</param>
    /// <param name="message">What exactly is wrong.</param>
    public JsonRpcFramingException(JsonRpcFramingErrorReason reason, string message)
        : base(message)
    {
        Reason = reason;
    }

    /// <summary>Why the input was refused.</summary>
    public JsonRpcFramingErrorReason Reason { get; }
}
