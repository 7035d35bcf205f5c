namespace JsonRpc.Client.Internal;

/// <summary>How a call ended.</summary>
internal enum CallOutcome : byte
{
    Pending,
    Result,
    RemoteError,
    Canceled,
    TimedOut,
    ConnectionLost,
    Failed,
}
