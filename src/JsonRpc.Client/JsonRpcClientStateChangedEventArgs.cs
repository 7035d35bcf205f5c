namespace JsonRpc.Client;

/// <summary>Data of <see cref="JsonRpcClient.StateChanged"/>.</summary>
public sealed class JsonRpcClientStateChangedEventArgs : EventArgs
{
    /// <summary>Creates the event data.</summary>
    public JsonRpcClientStateChangedEventArgs(JsonRpcClientState oldState, JsonRpcClientState newState, Exception? exception)
    {
        OldState = oldState;
        NewState = newState;
        Exception = exception;
    }

    /// <summary>The state before the change.</summary>
    public JsonRpcClientState OldState { get; }

    /// <summary>The state after the change.</summary>
    public JsonRpcClientState NewState { get; }

    /// <summary>Why the connection was lost or a reconnect attempt failed, when that is the cause of the change.</summary>
    public Exception? Exception { get; }
}
