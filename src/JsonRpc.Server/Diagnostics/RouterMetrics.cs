using System.Diagnostics.Metrics;

namespace JsonRpc.Server.Diagnostics;

/// <summary>
/// The <c>JsonRpc.Router</c> meter: observable instruments over <see cref="RouterCounters"/>, read only when a
/// listener (dotnet-counters, OpenTelemetry) collects, so they cost routing nothing.
/// </summary>
internal sealed class RouterMetrics : IDisposable
{
    /// <summary>The meter's name.</summary>
    public const string MeterName = "JsonRpc.Router";

    private readonly Meter _meter;
    private readonly bool _ownsMeter;

    public RouterMetrics(RouterCounters counters, IMeterFactory? meterFactory, JsonRpcRouter? router = null)
    {
        if (meterFactory is null)
        {
            _meter = new Meter(MeterName);
            _ownsMeter = true;
        }
        else
        {
            _meter = meterFactory.Create(MeterName);
        }

        var c = counters;
        _meter.CreateObservableUpDownCounter("jsonrpc.router.connections", () => Volatile.Read(ref c.Connections), "{connection}", "Connections open now.");
        _meter.CreateObservableCounter("jsonrpc.router.connections.accepted", () => Volatile.Read(ref c.ConnectionsTotal), "{connection}", "Connections accepted since start.");
        _meter.CreateObservableCounter("jsonrpc.router.connections.rejected", () => Volatile.Read(ref c.ConnectionsRejected), "{connection}", "Connections refused at the connection limit.");
        _meter.CreateObservableUpDownCounter("jsonrpc.router.clients", () => Volatile.Read(ref c.RegisteredClients), "{client}", "Registered clients.");
        _meter.CreateObservableUpDownCounter("jsonrpc.router.methods", () => Volatile.Read(ref c.Methods), "{method}", "Methods with at least one provider.");
        _meter.CreateObservableUpDownCounter("jsonrpc.router.providers", () => Volatile.Read(ref c.Providers), "{registration}", "Method registrations.");
        _meter.CreateObservableUpDownCounter("jsonrpc.router.subscriptions", () => Volatile.Read(ref c.Subscriptions), "{subscription}", "Event subscriptions.");
        _meter.CreateObservableUpDownCounter("jsonrpc.router.calls.pending", () => Volatile.Read(ref c.PendingCalls), "{call}", "Routed calls waiting for an answer.");
        _meter.CreateObservableCounter("jsonrpc.router.messages.received", () => Volatile.Read(ref c.MessagesIn), "{message}", "Messages received.");
        _meter.CreateObservableCounter("jsonrpc.router.messages.sent", () => Volatile.Read(ref c.MessagesOut), "{message}", "Messages sent.");
        _meter.CreateObservableCounter("jsonrpc.router.bytes.received", () => Volatile.Read(ref c.BytesIn), "By", "Payload bytes received.");
        _meter.CreateObservableCounter("jsonrpc.router.bytes.sent", () => Volatile.Read(ref c.BytesOut), "By", "Payload bytes sent.");
        _meter.CreateObservableCounter("jsonrpc.router.calls.routed", () => Volatile.Read(ref c.CallsRouted), "{call}", "Calls forwarded to a provider.");
        _meter.CreateObservableCounter("jsonrpc.router.notifications.routed", () => Volatile.Read(ref c.NotificationsRouted), "{notification}", "Notifications forwarded to a provider.");
        _meter.CreateObservableCounter("jsonrpc.router.events.published", () => Volatile.Read(ref c.EventsPublished), "{event}", "Events published.");
        _meter.CreateObservableCounter("jsonrpc.router.events.delivered", () => Volatile.Read(ref c.EventsDelivered), "{event}", "Events delivered to subscribers.");
        _meter.CreateObservableCounter("jsonrpc.router.calls.server", () => Volatile.Read(ref c.ServerCalls), "{call}", "Calls served by host methods.");
        _meter.CreateObservableCounter("jsonrpc.router.errors", () => Volatile.Read(ref c.Errors), "{error}", "Error responses sent by the router.");
        _meter.CreateObservableCounter("jsonrpc.router.calls.timeouts", () => Volatile.Read(ref c.Timeouts), "{call}", "Routed calls that timed out.");
        _meter.CreateObservableCounter("jsonrpc.router.answers.dropped", () => Volatile.Read(ref c.AnswersDropped), "{answer}", "Late or foreign answers dropped.");
        _meter.CreateObservableCounter("jsonrpc.router.read_pauses", () => Volatile.Read(ref c.ReadPauses), "{pause}", "Times the router stopped reading a client: half its outbound bound waited for it, it sent invalid messages, or its address was recently dropped for misbehaviour.");
        _meter.CreateObservableCounter("jsonrpc.router.cancels.forwarded", () => Volatile.Read(ref c.CancelsForwarded), "{notification}", "$/cancelRequest notifications sent to providers.");
        if (router is not null)
        {
            _meter.CreateObservableUpDownCounter("jsonrpc.router.memory.held", () => router.Memory.Held, "By", "Buffers held for clients (outbound queues and batch replies).");
            _meter.CreateObservableUpDownCounter("jsonrpc.router.memory.budget", () => router.Memory.Max, "By", "The memory budget (max_memory).");
            _meter.CreateObservableCounter("jsonrpc.router.memory.refusals", () => router.MemoryRefusals, "{call}", "Calls refused near the memory budget.");

            // Security: refusals by reason, and each identity's counters under an `identity` tag (only identities seen).
            _meter.CreateObservableCounter("jsonrpc.router.refusals", () => Refusals(router), "{refusal}", "Refusals by reason (security and quotas).");
            _meter.CreateObservableCounter("jsonrpc.router.identity.calls", () => PerIdentity(router, static s => Volatile.Read(ref s.Calls)), "{call}", "Calls and notifications accepted, per identity.");
            _meter.CreateObservableCounter("jsonrpc.router.identity.refusals", () => PerIdentity(router, static s => Volatile.Read(ref s.Refusals)), "{refusal}", "Refusals, per identity.");
            _meter.CreateObservableCounter("jsonrpc.router.identity.rate_limited", () => PerIdentity(router, static s => Volatile.Read(ref s.RateLimited)), "{call}", "Calls refused over the rate quota, per identity.");
            _meter.CreateObservableUpDownCounter("jsonrpc.router.identity.connections", () => PerIdentity(router, static s => Volatile.Read(ref s.Connections)), "{connection}", "Connections authenticated, per identity.");
            _meter.CreateObservableUpDownCounter("jsonrpc.router.identity.calls.in_flight", () => PerIdentity(router, static s => Volatile.Read(ref s.InFlight)), "{call}", "Calls waiting for answers, per identity.");
        }

        _meter.CreateObservableGauge("jsonrpc.router.uptime", () => (Environment.TickCount64 - c.StartedAt) / 1000.0, "s", "Time since the router started.");
    }

    private static IEnumerable<Measurement<long>> Refusals(JsonRpcRouter router)
    {
        if (router.Security is null)
        {
            yield break;
        }

        foreach (var reason in Security.RefusalReasons.All)
        {
            yield return new Measurement<long>(router.Audit.Count(reason), new KeyValuePair<string, object?>("reason", Security.RefusalReasons.Name(reason)));
        }
    }

    private static IEnumerable<Measurement<long>> PerIdentity(JsonRpcRouter router, Func<Security.IdentityState, long> read)
    {
        foreach (var state in router.IdentityStates)
        {
            yield return new Measurement<long>(read(state), new KeyValuePair<string, object?>("identity", state.Identity));
        }
    }

    public void Dispose()
    {
        if (_ownsMeter)
        {
            _meter.Dispose();
        }
    }
}
