namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>How a StreamJsonRpc peer frames and serializes its messages.</summary>
public enum PeerFraming
{
    /// <summary><c>NewLineDelimitedMessageHandler</c> with <c>SystemTextJsonFormatter</c>.</summary>
    NewlineSystemTextJson,

    /// <summary><c>HeaderDelimitedMessageHandler</c> (<c>Content-Length</c> headers) with its default formatter (Newtonsoft.Json).</summary>
    HeaderDelimited,
}
