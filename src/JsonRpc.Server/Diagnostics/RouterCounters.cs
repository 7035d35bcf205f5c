namespace JsonRpc.Server.Diagnostics;

/// <summary>
/// The router's counters: plain fields updated with <see cref="Interlocked"/>, read by <c>get_server_stats</c> and by
/// the observable instruments of <see cref="RouterMetrics"/>, so both always agree and routing pays one atomic add.
/// </summary>
internal sealed class RouterCounters
{
    public long Connections;
    public long ConnectionsTotal;
    public long ConnectionsRejected;
    public long RegisteredClients;
    public long Methods;
    public long Providers;
    public long Subscriptions;
    public long PendingCalls;
    public long MessagesIn;
    public long MessagesOut;
    public long BytesIn;
    public long BytesOut;
    public long CallsRouted;
    public long NotificationsRouted;
    public long EventsPublished;
    public long EventsDelivered;
    public long ServerCalls;
    public long Errors;
    public long Timeouts;
    public long AnswersDropped;
    public long CancelsForwarded;
    public long ReadPauses;

    // Not reported: how many pending calls cancellations have looked at, so tests can see what one costs.
    public long CallsExaminedByCancels;

    public long StartedAt = Environment.TickCount64;

    public JsonRpcRouterStats Snapshot() => new()
    {
        Connections = Volatile.Read(ref Connections),
        ConnectionsTotal = Volatile.Read(ref ConnectionsTotal),
        ConnectionsRejected = Volatile.Read(ref ConnectionsRejected),
        RegisteredClients = Volatile.Read(ref RegisteredClients),
        Methods = Volatile.Read(ref Methods),
        Providers = Volatile.Read(ref Providers),
        Subscriptions = Volatile.Read(ref Subscriptions),
        PendingCalls = Volatile.Read(ref PendingCalls),
        MessagesIn = Volatile.Read(ref MessagesIn),
        MessagesOut = Volatile.Read(ref MessagesOut),
        BytesIn = Volatile.Read(ref BytesIn),
        BytesOut = Volatile.Read(ref BytesOut),
        CallsRouted = Volatile.Read(ref CallsRouted),
        NotificationsRouted = Volatile.Read(ref NotificationsRouted),
        EventsPublished = Volatile.Read(ref EventsPublished),
        EventsDelivered = Volatile.Read(ref EventsDelivered),
        ServerCalls = Volatile.Read(ref ServerCalls),
        Errors = Volatile.Read(ref Errors),
        Timeouts = Volatile.Read(ref Timeouts),
        AnswersDropped = Volatile.Read(ref AnswersDropped),
        CancelsForwarded = Volatile.Read(ref CancelsForwarded),
        ReadPauses = Volatile.Read(ref ReadPauses),
        Uptime = TimeSpan.FromMilliseconds(Environment.TickCount64 - StartedAt),
    };
}
