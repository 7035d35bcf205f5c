using System.Buffers;
using System.Diagnostics;
using JsonRpc.Diagnostics;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

// A server span per call and notification served, when someone listens to the JsonRpc.Dispatcher source.
public sealed partial class JsonRpcDispatcher
{
    internal static readonly ActivitySource ActivitySource = new(JsonRpcTelemetry.DispatcherSourceName);

    /// <summary>
    /// Serves one call inside a server span: a child of the trace context the message carries (top-level
    /// <c>traceparent</c>, else <c>params._meta.traceparent</c>), else of <see cref="Activity.Current"/>; the handler runs
    /// with it as <see cref="Activity.Current"/>, so that its own spans are children of it.
    /// </summary>
    private async ValueTask<bool> DispatchTracedAsync(ReadOnlyMemory<byte> message, JsonRpcMessageInfo info, IBufferWriter<byte> output, CancellationToken cancellationToken, JsonRpcCancellationScope? scope)
    {
        var span = message.Span;
        var scratch = new byte[info.Method.GetOffsetAndLength(span.Length).Length];
        var method = System.Text.Encoding.UTF8.GetString(info.GetMethod(span, scratch));
        var parent = JsonRpcTraceContext.Find(span, in info).TryGetContext(out var remote) ? remote : Activity.Current?.Context ?? default;
        using var activity = ActivitySource.StartActivity(method, ActivityKind.Server, parent);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag(JsonRpcTelemetry.RpcSystem, "jsonrpc");
            activity.SetTag(JsonRpcTelemetry.RpcMethod, method);
            activity.SetTag(JsonRpcTelemetry.RpcJsonRpcVersion, "2.0");
            if (info.Kind == JsonRpcMessageKind.Request)
            {
                activity.SetTag(JsonRpcTelemetry.RpcJsonRpcRequestId, info.GetId(span).ToString());
            }
        }

        return await DispatchCoreAsync(message, info, output, cancellationToken, scope).ConfigureAwait(false);
    }

    /// <summary>Marks the current dispatcher span (if it is one) as answered with an error.</summary>
    internal static void TraceError(int code, string message)
    {
        if (Activity.Current is { } activity && ReferenceEquals(activity.Source, ActivitySource))
        {
            activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorCode, code);
            activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorMessage, message);
            activity.SetStatus(ActivityStatusCode.Error, message);
        }
    }
}
