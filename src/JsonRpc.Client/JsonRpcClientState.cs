namespace JsonRpc.Client;

/// <summary>Where a <see cref="JsonRpcClient"/>'s connection stands.</summary>
public enum JsonRpcClientState
{
    /// <summary>The first connection is being opened.</summary>
    Connecting,

    /// <summary>Connected (and, after a reconnect, registration, methods and subscriptions restored): calls go out at once.</summary>
    Connected,

    /// <summary>The connection was lost and a new one is being opened with back-off; new calls wait for it.</summary>
    Reconnecting,

    /// <summary>The connection was lost and will not be reopened (reconnect off or given up); calls fail.</summary>
    Disconnected,

    /// <summary>The client was disposed.</summary>
    Disposed,
}
