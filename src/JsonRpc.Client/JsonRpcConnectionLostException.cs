namespace JsonRpc.Client;

/// <summary>
/// The connection closed or broke while a call was pending, or no connection is available. Every call pending on
/// that connection fails with this exception at once; whether the peer executed such a call is unknown.
/// </summary>
/// <remarks>The cause (a socket error, end of stream, a framing error) is the <see cref="Exception.InnerException"/>.</remarks>
public sealed class JsonRpcConnectionLostException : IOException
{
    /// <summary>Creates the exception.</summary>
    public JsonRpcConnectionLostException(string message, Exception? innerException = null)
        : base(message, innerException)
    {
    }
}
