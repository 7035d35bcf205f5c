namespace JsonRpc.Server;

/// <summary>
/// Limits on one identity, over all its connections on this router. A call over a limit is answered at once with
/// <see cref="RouterErrorCodes.QuotaExceeded"/> and a <c>retry_after_ms</c> hint; nothing is queued or dropped silently.
/// </summary>
public sealed class JsonRpcQuota
{
    /// <summary>Calls and notifications per second, on average (a token bucket); null for no limit.</summary>
    public double? CallsPerSecond { get; set; }

    /// <summary>How many calls may come at once above the average rate (the bucket's size). Default: one second's worth.</summary>
    public int? Burst { get; set; }

    /// <summary>The most calls the identity may have waiting for answers at once; null for no limit.</summary>
    public int? MaxCallsInFlight { get; set; }

    /// <summary>The most connections the identity may have open at once; null for no limit.</summary>
    public int? MaxConnections { get; set; }
}
