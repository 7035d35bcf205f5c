using System.Diagnostics;
using System.Globalization;
using JsonRpc.Diagnostics;

namespace JsonRpc.Client.Internal;

/// <summary>
/// The client's spans (<see cref="JsonRpcTelemetry.ClientSourceName"/>): a client span per call and notification,
/// a child of <see cref="Activity.Current"/>, whose context the message carries as its top-level <c>traceparent</c>.
/// Without a listener there is no span, and the message carries <see cref="Activity.Current"/>'s context when there is one.
/// </summary>
internal static class ClientTracing
{
    public static readonly ActivitySource Source = new(JsonRpcTelemetry.ClientSourceName);

    public static bool IsEnabled => Source.HasListeners();

    /// <summary>Starts the span of a call (<paramref name="id"/> 0: a notification).</summary>
    public static Activity? Start(string method, long id)
    {
        var activity = Source.StartActivity(method, ActivityKind.Client);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag(JsonRpcTelemetry.RpcSystem, "jsonrpc");
            activity.SetTag(JsonRpcTelemetry.RpcMethod, method);
            activity.SetTag(JsonRpcTelemetry.RpcJsonRpcVersion, "2.0");
            if (id != 0)
            {
                activity.SetTag(JsonRpcTelemetry.RpcJsonRpcRequestId, id.ToString(CultureInfo.InvariantCulture));
            }
        }

        return activity;
    }

    /// <summary>Records how the call ended (the span itself ends when disposed).</summary>
    public static void Ended(Activity activity, PendingCall call)
    {
        switch (call.Outcome)
        {
            case CallOutcome.Result:
                return;
            case CallOutcome.RemoteError:
                activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorCode, call.ErrorCode);
                activity.SetTag(JsonRpcTelemetry.RpcJsonRpcErrorMessage, call.ErrorMessage);
                activity.SetStatus(ActivityStatusCode.Error, call.ErrorMessage);
                return;
            default:
                activity.SetStatus(ActivityStatusCode.Error, call.Outcome.ToString());
                return;
        }
    }
}
