using JsonRpc.Serialization;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    // Host methods arrive with JsonRpc.Dispatch.JsonRpcDispatcher; until then there are none.
    internal bool IsServerMethod(ReadOnlySpan<byte> nameUtf8)
    {
        _ = nameUtf8;
        return false;
    }

    internal bool TryCallServerMethod(RouterConnection caller, ReadOnlySpan<byte> method, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        _ = caller;
        _ = batch;
        _ = info.Kind;
        _ = method.Length + message.Length + idToken.Length;
        return false;
    }

    internal bool TryNotifyServerMethod(ReadOnlySpan<byte> method, ReadOnlySpan<byte> message)
    {
        _ = (method.Length, message.Length);
        return false;
    }

    private static void AddServerMethodNames(List<(string Method, RouterConnection[]? Providers)> entries) => _ = entries;
}
