using JsonRpc.Dispatch;
using JsonRpc.Protocol;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // The host-method calls this connection made that are running, for its $/cancelRequest; created with the first one.
    private JsonRpcCancellationScope? _serverScope;

    /// <summary>
    /// <c>$/cancelRequest</c> from this connection: cancels its own call of that id, wherever it runs. A routed call's
    /// provider is told under the id it saw (the call stays in its table: the caller still gets exactly one answer, the
    /// provider's or the timeout); a host method's token fires. Anything else (no usable id, an unknown or finished
    /// call, someone else's call) changes nothing.
    /// </summary>
    private void CancelRequest(ReadOnlySpan<byte> @params)
    {
        if (!JsonRpcProtocolMethods.TryReadCancelRequestId(@params, out var id))
        {
            RouterLog.CancelIgnored(_logger, ConnectionId, Name);
            return;
        }

        var hostCall = _serverScope?.Cancel(id) ?? false;
        var forwarded = PendingAsCaller > 0 ? CancelRoutedCalls(id) : 0;
        RouterLog.CancelRequested(_logger, ConnectionId, Name, id.ToString(), forwarded, hostCall);
    }

    /// <summary>Tells this connection, as a provider, that the router no longer needs the answer to a call it holds.</summary>
    internal void SendCancel(long routerId) => Send(ReplyWriter.CancelRequest(routerId));
}
