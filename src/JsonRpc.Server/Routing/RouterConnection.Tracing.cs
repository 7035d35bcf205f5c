using System.Buffers;
using System.Diagnostics;
using JsonRpc.Diagnostics;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

// The router's spans of what this connection sends through it (see RouterTracing); only while someone traces.
internal sealed partial class RouterConnection
{
    /// <summary>Starts the call's span and gives the message to forward: the router's id, and a traceparent naming the span.</summary>
    /// <summary>
    /// A span for the call, a child of the caller's context and tagged from the call as the caller sent it; the call as
    /// it will be forwarded (its id, and any stream tokens, already exchanged) gets a traceparent naming the span. Read
    /// again to find where the trace context goes: only when someone listens.
    /// </summary>
    private OutboundMessage TraceForwarded(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, OutboundMessage forwarded, RoutedCall call, ReadOnlySpan<byte> routerId)
    {
        var context = JsonRpcTraceContext.Find(message, in info);
        var activity = RouterTracing.Start(this, call.Provider, message, in info, ActivityKind.Server, context, _router.Cluster?.NodeName);
        if (activity is null)
        {
            return forwarded;
        }

        call.Activity = activity;
        var bytes = forwarded.Span;
        if (!JsonRpcMessageReader.TryRead(bytes, _router.Options.MaxDepth, out var sent, out _))
        {
            return forwarded;
        }

        var traced = RouterTracing.Forward(bytes, JsonRpcTraceContext.Find(bytes, in sent), activity, sent.IdToken, routerId);
        forwarded.Return();
        return traced;
    }

    /// <summary>
    /// A notification to its provider and subscribers, in one span (an event's is a producer span): each receives the
    /// message with a traceparent naming it.
    /// </summary>
    private void DeliverTraced(ReadOnlySpan<byte> message, RouteEntry route, RouterConnection? provider, bool publish)
    {
        if (!JsonRpcMessageReader.TryRead(message, _router.Options.MaxDepth, out var info, out _))
        {
            Deliver(message, message, route, provider, publish);
            return;
        }

        var context = JsonRpcTraceContext.Find(message, in info);
        var kind = provider is null ? ActivityKind.Producer : ActivityKind.Server;
        var activity = RouterTracing.Start(this, provider, message, in info, kind, context, _router.Cluster?.NodeName);
        if (activity is null)
        {
            Deliver(message, message, route, provider, publish);
            return;
        }

        if (publish && route.Subscribers.Length > 0)
        {
            activity.SetTag("jsonrpc.router.subscribers", route.Subscribers.Length);
        }

        var forwarded = RouterTracing.Forward(message, context, activity, null, default);
        try
        {
            Deliver(forwarded.Span, forwarded.Span, route, provider, publish);
        }
        finally
        {
            forwarded.Return();
            RouterTracing.Stop(activity);
        }
    }
}
