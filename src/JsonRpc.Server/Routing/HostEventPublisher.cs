using JsonRpc.Dispatch;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Server.Routing;

/// <summary>
/// Publishes the events of the router's host targets (<see cref="JsonRpcRouter.AddTarget{TContract}"/>): each is a
/// notification named after the event, passed to its subscribers as a client's published event would be (a cluster
/// node's link among them, when another node has subscribers).
/// </summary>
internal sealed class HostEventPublisher(JsonRpcRouter router) : JsonRpcPeerChannel
{
    private const int MaxStackName = 256;

    public override bool TrySend(ReadOnlySpan<byte> notification)
    {
        if (!JsonRpcMessageReader.TryRead(notification, out var info, out _) || info.Kind != JsonRpcMessageKind.Notification)
        {
            return false;
        }

        var raw = notification[info.Method];
        var scratch = raw.Length <= MaxStackName ? stackalloc byte[MaxStackName] : new byte[raw.Length];
        if (!router.Routes.TryGetValue(info.GetMethod(notification, scratch), out var route) || route.Subscribers is not { Length: > 0 } subscribers)
        {
            return false;
        }

        var delivered = router.Publish(notification, subscribers, sender: null, provider: null);
        return delivered > 0;
    }
}
