using System.Buffers;
using System.Diagnostics;
using System.Text;
using JsonRpc.Diagnostics;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Diagnostics;

/// <summary>
/// The router's spans (<see cref="JsonRpcTelemetry.RouterSourceName"/>): one per routed call, notification and event,
/// a child of the trace context the caller's message carries (StreamJsonRpc's top-level <c>traceparent</c>, else MCP's
/// <c>params._meta.traceparent</c>), and the message forwarded with a <c>traceparent</c> naming the router's span in
/// the same place (top-level when the caller sent none). Only ever called when someone listens to the source: with
/// nobody listening, routing does not look for trace context at all.
/// </summary>
internal static class RouterTracing
{
    public static readonly ActivitySource Source = new(JsonRpcTelemetry.RouterSourceName);

    /// <summary>Whether spans are wanted now.</summary>
    public static bool IsEnabled => Source.HasListeners();

    /// <summary>
    /// Starts the span of a routed message, a child of <paramref name="context"/> alone (the router's own thread carries
    /// no trace: <see cref="Activity.Current"/> is left as it was).
    /// </summary>
    public static Activity? Start(RouterConnection caller, RouterConnection? provider, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info,
        ActivityKind kind, JsonRpcTraceContext context, string? node)
    {
        context.TryGetContext(out var parent);
        var method = MethodName(message, in info);
        var previous = Activity.Current;
        Activity.Current = null;
        var activity = Source.StartActivity(method, kind, parent);
        Activity.Current = previous;
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag(JsonRpcTelemetry.RpcSystem, "jsonrpc");
            activity.SetTag(JsonRpcTelemetry.RpcMethod, method);
            activity.SetTag(JsonRpcTelemetry.RpcJsonRpcVersion, "2.0");
            if (info.Kind == JsonRpcMessageKind.Request)
            {
                activity.SetTag(JsonRpcTelemetry.RpcJsonRpcRequestId, Encoding.UTF8.GetString(message[info.IdToken]));
            }

            activity.SetTag("jsonrpc.router.caller", caller.Name ?? caller.ConnectionId);
            if (caller.RemoteEndPoint is { } address)
            {
                activity.SetTag("network.peer.address", address);
            }

            if (provider is not null)
            {
                activity.SetTag("jsonrpc.router.provider", provider.Name);
                activity.SetTag("jsonrpc.router.provider.is_node", provider.IsPeer);
            }

            if (node is not null)
            {
                activity.SetTag("jsonrpc.router.node", node);
            }
        }

        return activity;
    }

    /// <summary>Ends a call's span with the answer the provider gave.</summary>
    public static void Answered(Activity activity, ReadOnlySpan<byte> answer)
    {
        if (JsonRpcMessageReader.TryRead(answer, out var info, out _) && info.Kind == JsonRpcMessageKind.Error)
        {
            Failed(activity, info.ErrorCode, info.GetErrorMessage(answer));
            return;
        }

        Stop(activity);
    }

    /// <summary>Ends a span with the error the router answered (or the provider's).</summary>
    public static void Failed(Activity activity, int code, string message)
    {
        activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorCode, code);
        activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorMessage, message);
        activity.SetStatus(ActivityStatusCode.Error, message);
        Stop(activity);
    }

    /// <summary>Ends a span on whatever thread, leaving that thread's <see cref="Activity.Current"/> as it was.</summary>
    public static void Stop(Activity activity)
    {
        var current = Activity.Current;
        activity.Stop();
        Activity.Current = current;
    }

    /// <summary>
    /// The message to forward: its <c>traceparent</c> names <paramref name="activity"/> (replaced where the caller put
    /// it, else added as a top-level member), and, given <paramref name="idToken"/>, its id is <paramref name="newId"/>:
    /// both edits in one copy.
    /// </summary>
    public static OutboundMessage Forward(ReadOnlySpan<byte> message, JsonRpcTraceContext context, Activity activity, Range? idToken, ReadOnlySpan<byte> newId)
    {
        Span<byte> traceParent = stackalloc byte[64];
        var value = activity.Id!;
        traceParent[0] = (byte)'"';
        var length = 1 + Encoding.ASCII.GetBytes(value, traceParent[1..]);
        traceParent[length++] = (byte)'"';

        // The trace edit: replace the value in place, or insert `"traceparent":"…",` right after the opening brace.
        Range traceRange;
        ReadOnlySpan<byte> prefix = default;
        if (context.Location == JsonRpcTraceContextLocation.None)
        {
            var brace = message.IndexOf((byte)'{') + 1;
            traceRange = new Range(brace, brace);
            prefix = "\"traceparent\":"u8;
        }
        else
        {
            traceRange = context.TraceParentToken;
        }

        var (traceStart, traceLength) = traceRange.GetOffsetAndLength(message.Length);
        var insertion = prefix.Length + length + (prefix.IsEmpty ? 0 : 1);
        var (idStart, idLength) = idToken is { } id ? id.GetOffsetAndLength(message.Length) : (0, 0);
        var size = message.Length - traceLength + insertion - idLength + (idToken is null ? 0 : newId.Length);
        var buffer = ArrayPool<byte>.Shared.Rent(size);
        var written = 0;
        var read = 0;

        if (idToken is not null && idStart < traceStart)
        {
            message[read..idStart].CopyTo(buffer.AsSpan(written));
            written += idStart - read;
            newId.CopyTo(buffer.AsSpan(written));
            written += newId.Length;
            read = idStart + idLength;
        }

        message[read..traceStart].CopyTo(buffer.AsSpan(written));
        written += traceStart - read;
        prefix.CopyTo(buffer.AsSpan(written));
        written += prefix.Length;
        traceParent[..length].CopyTo(buffer.AsSpan(written));
        written += length;
        if (!prefix.IsEmpty)
        {
            buffer[written++] = (byte)',';
        }

        read = traceStart + traceLength;
        if (idToken is not null && idStart >= traceStart)
        {
            message[read..idStart].CopyTo(buffer.AsSpan(written));
            written += idStart - read;
            newId.CopyTo(buffer.AsSpan(written));
            written += newId.Length;
            read = idStart + idLength;
        }

        message[read..].CopyTo(buffer.AsSpan(written));
        written += message.Length - read;
        Debug.Assert(written == size);
        return new OutboundMessage(buffer, size);
    }

    private static string MethodName(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        var length = info.Method.GetOffsetAndLength(message.Length).Length;
        var scratch = length <= 256 ? stackalloc byte[256] : new byte[length];
        return Encoding.UTF8.GetString(info.GetMethod(message, scratch));
    }
}
