namespace JsonRpc.LoadTest;

/// <summary>How callers keep calls in flight.</summary>
public enum LoadMode
{
    /// <summary>One call in flight per connection: send, wait for the answer, send the next.</summary>
    Closed,

    /// <summary>A window of calls in flight per connection, refilled as answers arrive.</summary>
    Pipelined,
}
