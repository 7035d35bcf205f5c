namespace JsonRpc.Diagnostics;

/// <summary>
/// The names under which the toolkit traces (System.Diagnostics <c>ActivitySource</c>s; subscribe with
/// OpenTelemetry's <c>AddSource</c>) and the span attributes it sets, after OpenTelemetry's semantic conventions for
/// RPC (<c>rpc.system</c> = <c>jsonrpc</c>). With nobody listening to a source, its spans are never made.
/// </summary>
public static class JsonRpcTelemetry
{
    /// <summary>The dispatcher's source: a server span per call or notification it serves.</summary>
    public const string DispatcherSourceName = "JsonRpc.Dispatcher";

    /// <summary>The router's source: a span per routed call, notification and event.</summary>
    public const string RouterSourceName = "JsonRpc.Router";

    /// <summary>The client's source: a client span per call and notification it sends.</summary>
    public const string ClientSourceName = "JsonRpc.Client";

    /// <summary><c>rpc.system</c>: always <c>jsonrpc</c>.</summary>
    public const string RpcSystem = "rpc.system";

    /// <summary><c>rpc.method</c>: the method name.</summary>
    public const string RpcMethod = "rpc.method";

    /// <summary><c>rpc.jsonrpc.version</c>: <c>2.0</c>.</summary>
    public const string RpcJsonRpcVersion = "rpc.jsonrpc.version";

    /// <summary><c>rpc.jsonrpc.request_id</c>: the request's id as sent (absent for notifications).</summary>
    public const string RpcJsonRpcRequestId = "rpc.jsonrpc.request_id";

    /// <summary><c>rpc.jsonrpc.error_code</c>: the error answered, if any.</summary>
    public const string RpcJsonRpcErrorCode = "rpc.jsonrpc.error_code";

    /// <summary><c>rpc.jsonrpc.error_message</c>: its message.</summary>
    public const string RpcJsonRpcErrorMessage = "rpc.jsonrpc.error_message";
}
