using Microsoft.AspNetCore.Connections;

namespace JsonRpc.Server;

/// <summary>
/// Serves Kestrel connections with the <see cref="JsonRpcRouter"/>: a thin adapter that hands the connection's
/// transport pipes to the router's transport-agnostic connection loop. Added by <c>listenOptions.UseJsonRpcRouter()</c>.
/// </summary>
public sealed class JsonRpcConnectionHandler : ConnectionHandler
{
    private readonly JsonRpcRouter _router;

    /// <summary>Creates the handler for <paramref name="router"/>.</summary>
    public JsonRpcConnectionHandler(JsonRpcRouter router)
    {
        ArgumentNullException.ThrowIfNull(router);
        _router = router;
    }

    /// <summary>Serves the connection as one router client until either side closes it or the router shuts down.</summary>
    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        var certificate = connection.Features.Get<Microsoft.AspNetCore.Http.Features.ITlsConnectionFeature>()?.ClientCertificate;
        return _router.RunConnectionAsync(connection.Transport, connection.ConnectionId, connection.RemoteEndPoint?.ToString(), connection.Abort,
            identity: _router.IdentityFromCertificate(certificate));
    }
}
