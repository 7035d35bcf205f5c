using System.Text;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Security;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // Limits on names clients choose, so that a peer cannot make the tables hold huge keys.
    internal const int MaxClientNameLength = 256;
    internal const int MaxRouteNameBytes = 1024;

    /// <summary>Serves one of the router's own methods; <paramref name="reply"/> is false for a notification.</summary>
    private void HandleBuiltIn(BuiltInMethod method, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> idToken, BatchReply? batch, bool reply)
    {
        var call = new BuiltInCall(this, idToken, batch, reply);
        if (method == BuiltInMethod.CancelRequest)
        {
            if (reply)
            {
                call.Fail(JsonRpcErrorCodes.InvalidRequest, "Invalid Request", "$/cancelRequest is a notification: send it without an id.");
            }
            else
            {
                CancelRequest(info.HasParams ? message[info.Params] : default);
            }

            return;
        }

        if (_router.Options.RequireRegistration && Name is null && !BuiltInMethods.AllowedBeforeRegistration(method))
        {
            call.Fail(RouterErrorCodes.NotRegistered, "Not registered", "Call register_client first.");
            return;
        }

        var @params = info.HasParams ? message[info.Params] : default;
        switch (method)
        {
            case BuiltInMethod.Authenticate:
                AuthenticateCall(@params, call);
                break;
            case BuiltInMethod.KeepAlive:
                call.Result(true);
                break;
            case BuiltInMethod.GetServerStats:
            case BuiltInMethod.ListMethods:
            case BuiltInMethod.ListClients:
            case BuiltInMethod.Discover:
                if (reply && (method == BuiltInMethod.GetServerStats || MaySee(batch, idToken, reply, ReportName(method))))
                {
                    ReplyWithReport(method, idToken, batch);
                }

                break;
            case BuiltInMethod.RegisterClient:
                RegisterClient(@params, call);
                break;
            case BuiltInMethod.RegisterMethod:
            case BuiltInMethod.UnregisterMethod:
            case BuiltInMethod.Subscribe:
            case BuiltInMethod.Unsubscribe:
                ChangeRoute(method, @params, call);
                break;
        }
    }

    /// <summary>Answers one of the router's reports: its counters, its methods or its clients.</summary>
    private void ReplyWithReport(BuiltInMethod method, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        var writer = ReplyWriter.Begin(idToken);
        writer.WritePropertyName("result"u8);
        switch (method)
        {
            case BuiltInMethod.GetServerStats:
                _router.WriteStats(writer, Viewer);
                break;
            case BuiltInMethod.ListMethods:
                _router.WriteMethodList(writer, Viewer);
                break;
            case BuiltInMethod.Discover:
                _router.WriteOpenRpcDocument(writer, Viewer);
                break;
            default:
                _router.WriteClientList(writer, Viewer);
                break;
        }

        ReplyWriter.Finish(writer, this, batch);
    }

    private void RegisterClient(ReadOnlySpan<byte> @params, in BuiltInCall call)
    {
        if (!ParamReader.TryGetString(@params, RouterWire.NameMemberUtf8, 0, required: true, out var name, out var problem)
            || !ParamReader.TryGetString(@params, RouterWire.TokenMemberUtf8, 1, required: false, out var token, out problem))
        {
            call.Fail(JsonRpcErrorCodes.InvalidParams, "Invalid params", problem);
            return;
        }

        if (Name is not null)
        {
            call.Fail(RouterErrorCodes.AlreadyRegistered, "Already registered", $"This connection is registered as '{Name}'.");
            return;
        }

        if (_router.Security is { } policy)
        {
            if (token is not null && !SignInWithToken(policy, token, in call))
            {
                return;
            }
        }
        else if (!_router.CheckAccessToken(token))
        {
            RouterLog.RegistrationRefused(_logger, ConnectionId, "wrong access token");
            call.Fail(RouterErrorCodes.AccessDenied, "Access denied", "The access token is missing or wrong.");
            Close(CloseReason.AccessDenied);
            return;
        }

        if (name!.Length is 0 or > MaxClientNameLength)
        {
            call.Fail(JsonRpcErrorCodes.InvalidParams, "Invalid params", $"\"name\" must be 1 to {MaxClientNameLength} characters.");
            return;
        }

        if (!call.May(PermissionKind.ClientName, Encoding.UTF8.GetBytes(name)))
        {
            return;
        }

        if (_router.IsShuttingDown)
        {
            call.Fail(RouterErrorCodes.ShuttingDown, "Server shutting down", null);
            return;
        }

        if (_router.Cluster?.CheckClientName(name) is { } refusal)
        {
            RouterLog.RegistrationRefused(_logger, ConnectionId, refusal.Data);
            call.Fail(refusal.Code, refusal.Message, refusal.Data);
            return;
        }

        if (!_router.TryRegisterClient(this, name))
        {
            RouterLog.RegistrationRefused(_logger, ConnectionId, $"the name '{name}' is taken");
            call.Fail(RouterErrorCodes.NameTaken, "Name taken", $"Another connected client is registered as '{name}'.");
            return;
        }

        RouterLog.ClientRegistered(_logger, ConnectionId, name);
        call.Result(true);
    }

    private void ChangeRoute(BuiltInMethod method, ReadOnlySpan<byte> @params, in BuiltInCall call)
    {
        var isMethod = method is BuiltInMethod.RegisterMethod or BuiltInMethod.UnregisterMethod;
        var key = isMethod ? RouterWire.MethodMemberUtf8 : RouterWire.EventMemberUtf8;
        if (!ParamReader.TryGetString(@params, key, 0, required: true, out var name, out var problem))
        {
            call.Fail(JsonRpcErrorCodes.InvalidParams, "Invalid params", problem);
            return;
        }

        var exclusive = false;
        byte[]? description = null;
        if (method == BuiltInMethod.RegisterMethod
            && (!ParamReader.TryGetBool(@params, RouterWire.ExclusiveMemberUtf8, 1, out exclusive, out problem) || !TryGetDescription(@params, out description, out problem)))
        {
            call.Fail(JsonRpcErrorCodes.InvalidParams, "Invalid params", problem);
            return;
        }

        if (Name is null)
        {
            call.Fail(RouterErrorCodes.NotRegistered, "Not registered", "Call register_client first.");
            return;
        }

        var utf8 = Encoding.UTF8.GetBytes(name!);
        if (utf8.Length is 0 or > MaxRouteNameBytes)
        {
            call.Fail(JsonRpcErrorCodes.InvalidParams, "Invalid params", $"The name must be 1 to {MaxRouteNameBytes} bytes.");
            return;
        }

        switch (method)
        {
            case BuiltInMethod.RegisterMethod or BuiltInMethod.Subscribe when _router.IsReserved(utf8):
                call.Fail(RouterErrorCodes.MethodReserved, "Name reserved", JsonRpcProtocolMethods.IsReserved(name!)
                    ? $"Names starting with '{JsonRpcProtocolMethods.ReservedPrefix}' are reserved for protocol extensions."
                    : $"'{name}' is one of the router's own methods.");
                return;
            case BuiltInMethod.RegisterMethod or BuiltInMethod.Subscribe when _router.IsShuttingDown:
                call.Fail(RouterErrorCodes.ShuttingDown, "Server shutting down", null);
                return;
            case BuiltInMethod.RegisterMethod or BuiltInMethod.Subscribe
                when !call.May(method == BuiltInMethod.RegisterMethod ? PermissionKind.Provide : PermissionKind.Subscribe, utf8):
                return;
            case BuiltInMethod.RegisterMethod:
                // In place before the registration is announced to the cluster, and put back if it fails.
                var previous = SetDescription(name!, description);
                switch (_router.TryAddProvider(this, utf8, exclusive ? OwnerKey : null, OwnerKey, out var holder))
                {
                    case AddProviderResult.TooManyRoutes:
                        SetDescription(name!, previous);
                        FailTooManyRoutes(call);
                        return;
                    case AddProviderResult.Conflict:
                        SetDescription(name!, previous);
                        FailConflict(name!, exclusive, holder, in call);
                        return;
                }

                DescriptionReplaced(previous, description);
                RouterLog.MethodRegistered(_logger, Name, name!);
                call.Result(true);
                return;
            case BuiltInMethod.UnregisterMethod:
                var removed = _router.RemoveProvider(this, utf8);
                if (removed)
                {
                    SetDescription(name!, null);
                    RouterLog.MethodUnregistered(_logger, Name, name!);
                }

                call.Result(removed);
                return;
            case BuiltInMethod.Subscribe:
                if (!_router.TryAddSubscriber(this, utf8))
                {
                    FailTooManyRoutes(call);
                    return;
                }

                RouterLog.Subscribed(_logger, Name, name!);
                call.Result(true);
                return;
            default:
                call.Result(_router.RemoveSubscriber(this, utf8));
                return;
        }
    }

    private void FailConflict(string method, bool exclusive, string? holder, in BuiltInCall call)
    {
        var detail = exclusive
            ? $"'{method}' is provided by another identity ({holder}); an exclusive registration needs to be its only provider."
            : $"'{method}' is provided exclusively by {holder}.";
        if (_router.Security is { } policy)
        {
            if (PrincipalUnder(policy) is { } principal)
            {
                Interlocked.Increment(ref principal.State.Refusals);
            }

            _router.Audit.Refused(RefusalReason.Exclusive, Identity, ConnectionId, method, detail, policy.AuditLogsPerSecond);
        }

        call.Fail(RouterErrorCodes.ProviderConflict, "Provider conflict", detail);
    }

    private void FailTooManyRoutes(in BuiltInCall call)
        => call.Fail(RouterErrorCodes.TooManyRoutes, "Too many routes",
            $"A connection may provide and subscribe to at most {_router.Options.MaxRoutesPerConnection} names.");

    /// <summary>Where a built-in method's answer goes; a notification gets none.</summary>
    private readonly ref struct BuiltInCall(RouterConnection connection, ReadOnlySpan<byte> idToken, BatchReply? batch, bool reply)
    {
        private readonly ReadOnlySpan<byte> _idToken = idToken;

        public void Result(bool value)
        {
            if (reply)
            {
                ReplyWriter.Result(connection, batch, _idToken, value);
            }
        }

        public void Fail(int code, string message, string? data)
        {
            if (reply)
            {
                connection.Fail(batch, _idToken, code, message, data);
            }
        }

        public void RefuseConnections(SecurityPolicy policy, RouterPrincipal principal, int limit)
            => connection.RefuseConnections(policy, principal, limit, batch, _idToken, reply);

        /// <summary>Checks a permission on <paramref name="name"/>, answering the refusal when there is one.</summary>
        public bool May(PermissionKind kind, ReadOnlySpan<byte> name) => connection.May(kind, name, batch, _idToken, reply);

        public void Reply(Action<System.Text.Json.Utf8JsonWriter, RouterConnection> write)
        {
            if (reply)
            {
                var writer = ReplyWriter.Begin(_idToken);
                writer.WritePropertyName("result"u8);
                write(writer, connection);
                ReplyWriter.Finish(writer, connection, batch);
            }
        }
    }
}
