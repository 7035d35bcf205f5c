namespace JsonRpc.Client;

/// <summary>How messages are delimited on the connection.</summary>
public enum JsonRpcClientFraming
{
    /// <summary>One message per line, ended by <c>\n</c> (the router's default).</summary>
    NewlineDelimited,

    /// <summary>Each message preceded by a <c>Content-Length: N</c> header block, as in LSP.</summary>
    ContentLength,
}
