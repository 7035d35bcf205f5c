namespace JsonRpc.Server.Diagnostics;

/// <summary>Why a connection ended, for the log.</summary>
internal enum CloseReason
{
    /// <summary>Still open.</summary>
    None,

    /// <summary>The client closed it.</summary>
    ClientClosed,

    /// <summary>The client closed it in the middle of a message.</summary>
    ClosedMidMessage,

    /// <summary>A message exceeded the maximum size.</summary>
    MessageTooLarge,

    /// <summary>A Content-Length header could not be read.</summary>
    InvalidFraming,

    /// <summary>Nothing was received within the keep-alive timeout.</summary>
    IdleTimeout,

    /// <summary>No registration within the registration timeout.</summary>
    RegistrationTimeout,

    /// <summary>A wrong access token.</summary>
    AccessDenied,

    /// <summary>The client stopped reading and its outbound buffer filled.</summary>
    OutboundLimitExceeded,

    /// <summary>The connection limit was reached.</summary>
    TooManyConnections,

    /// <summary>The router is shutting down.</summary>
    ShuttingDown,

    /// <summary>The transport failed.</summary>
    TransportError,

    /// <summary>Clustered routers only: another node held the client's name first.</summary>
    NameConflict,

    /// <summary>The identity already has its most connections open.</summary>
    QuotaExceeded,

    /// <summary>One message took longer than the keep-alive timeout to arrive (a client trickling bytes).</summary>
    MessageTimeout,

    /// <summary>An HTTP request arrived on the raw TCP port: answered with a hint in HTTP.</summary>
    HttpOnTcpPort,
}
