namespace JsonRpc.Server.Routing;

/// <summary>What became of a message handed to a connection's outbound queue.</summary>
internal enum EnqueueResult
{
    /// <summary>Queued; the writer loop will send it.</summary>
    Queued,

    /// <summary>The connection is closing or closed; the message was discarded.</summary>
    Closed,

    /// <summary>The connection fell too far behind; the message was discarded and the connection must be dropped.</summary>
    Full,
}
