namespace JsonRpc.Server;

/// <summary>
/// A snapshot of the router's counters, as <c>get_server_stats</c> returns them and the <c>JsonRpc.Router</c> meter
/// reports them. Byte counts are JSON payload bytes, without framing.
/// </summary>
public sealed record JsonRpcRouterStats
{
    /// <summary>Connections open now.</summary>
    public long Connections { get; init; }

    /// <summary>Connections accepted since start.</summary>
    public long ConnectionsTotal { get; init; }

    /// <summary>Connections refused because <see cref="JsonRpcRouterOptions.MaxConnections"/> was reached.</summary>
    public long ConnectionsRejected { get; init; }

    /// <summary>Connections that called <c>register_client</c> and are still open.</summary>
    public long RegisteredClients { get; init; }

    /// <summary>Distinct method names with at least one provider.</summary>
    public long Methods { get; init; }

    /// <summary>Method registrations (a method with two providers counts twice).</summary>
    public long Providers { get; init; }

    /// <summary>Event subscriptions.</summary>
    public long Subscriptions { get; init; }

    /// <summary>Routed calls waiting for their provider's answer now.</summary>
    public long PendingCalls { get; init; }

    /// <summary>Messages received (a batch counts once).</summary>
    public long MessagesIn { get; init; }

    /// <summary>Messages sent (a batch response counts once).</summary>
    public long MessagesOut { get; init; }

    /// <summary>Bytes received.</summary>
    public long BytesIn { get; init; }

    /// <summary>Bytes sent.</summary>
    public long BytesOut { get; init; }

    /// <summary>Calls forwarded to a provider.</summary>
    public long CallsRouted { get; init; }

    /// <summary>Notifications forwarded to a method's provider.</summary>
    public long NotificationsRouted { get; init; }

    /// <summary>Event notifications received.</summary>
    public long EventsPublished { get; init; }

    /// <summary>Event notifications delivered (one per subscriber reached).</summary>
    public long EventsDelivered { get; init; }

    /// <summary>Calls served by the host's own methods.</summary>
    public long ServerCalls { get; init; }

    /// <summary>Error responses the router itself sent (bad input, unknown methods, timeouts, refusals).</summary>
    public long Errors { get; init; }

    /// <summary>Routed calls that failed because the provider did not answer within the call timeout.</summary>
    public long Timeouts { get; init; }

    /// <summary>Answers dropped: late (after a timeout) or for a call that was not sent to the one answering.</summary>
    public long AnswersDropped { get; init; }

    /// <summary>
    /// <c>$/cancelRequest</c> notifications the router sent to providers: forwarded from the caller, or its own when a
    /// call timed out or its caller disconnected.
    /// </summary>
    public long CancelsForwarded { get; init; }

    /// <summary>
    /// Times the router stopped reading a client for a while: because half of
    /// <see cref="JsonRpcRouterOptions.MaxOutboundBufferSize"/> was waiting for it (until it takes what waits, or is
    /// dropped for not reading), because it sent invalid messages (each delays its next read by 20 ms), or because its
    /// address was recently dropped for misbehaviour (<see cref="JsonRpcRouterOptions.MaxPenaltyDelay"/>).
    /// </summary>
    public long ReadPauses { get; init; }

    /// <summary>How long the router has run.</summary>
    public TimeSpan Uptime { get; init; }
}
