using System.Buffers;
using System.Buffers.Text;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Security;
using JsonRpc.Server.Streams;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // Method names up to this length are unescaped on the stack.
    private const int StackMethodLength = 256;

    private void HandleMessage(ReadOnlySpan<byte> message)
    {
        var counters = _router.Counters;
        Interlocked.Increment(ref counters.MessagesIn);
        Interlocked.Add(ref counters.BytesIn, message.Length);

        if (!JsonRpcMessageReader.TryRead(message, _router.Options.MaxDepth, out var info, out var error))
        {
            RefuseInvalid(message, in info, in error, batch: null);
            return;
        }

        switch (info.Kind)
        {
            case JsonRpcMessageKind.Request:
            case JsonRpcMessageKind.Notification:
                HandleMethod(message, in info, batch: null);
                break;
            case JsonRpcMessageKind.Response:
            case JsonRpcMessageKind.Error:
                HandleAnswer(message, in info);
                break;
            case JsonRpcMessageKind.Batch:
                HandleBatch(message);
                break;
        }
    }

    private void HandleBatch(ReadOnlySpan<byte> message)
    {
        // Answers to the batch's calls gather here; a batch without calls gets no reply at all.
        BatchReply? batch = null;
        foreach (var range in JsonRpcMessageReader.EnumerateBatch(message))
        {
            var element = message[range];
            if (!JsonRpcMessageReader.TryRead(element, _router.Options.MaxDepth, out var info, out var error))
            {
                RefuseInvalid(element, in info, in error, batch ??= _router.BeginBatch(this));
                continue;
            }

            switch (info.Kind)
            {
                case JsonRpcMessageKind.Request:
                    HandleMethod(element, in info, batch ??= _router.BeginBatch(this));
                    break;
                case JsonRpcMessageKind.Notification:
                    HandleMethod(element, in info, null);
                    break;
                case JsonRpcMessageKind.Response:
                case JsonRpcMessageKind.Error:
                    HandleAnswer(element, in info);
                    break;
                default:
                    Interlocked.Increment(ref _router.Counters.Errors);
                    ReplyWriter.Error(this, batch ??= _router.BeginBatch(this), default, JsonRpcErrorCodes.InvalidRequest,
                        "Invalid Request", "A batch cannot contain a batch.");
                    break;
            }
        }

        batch?.End();
    }

    private void RefuseInvalid(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, in JsonRpcReadError error, BatchReply? batch)
    {
        RouterLog.InvalidMessage(_logger, ConnectionId, error.Code, error.Detail);
        Interlocked.Increment(ref _router.Counters.Errors);
        _penaltyMs = Math.Min(_penaltyMs + InvalidMessagePenaltyMs, MaxPenaltyMs);
        var id = info.IdKind == RequestIdKind.None ? default : message[info.IdToken];
        ReplyWriter.Error(this, batch, id, error.Code, error.Message, error.Detail);
    }

    /// <summary>A request or notification: unescapes the method name (on the stack when short) and serves it.</summary>
    private void HandleMethod(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, BatchReply? batch)
    {
        var escapedLength = info.MethodIsEscaped ? info.Method.GetOffsetAndLength(message.Length).Length : 0;
        var rented = escapedLength > StackMethodLength ? ArrayPool<byte>.Shared.Rent(escapedLength) : null;
        Span<byte> scratch = rented ?? stackalloc byte[StackMethodLength];
        try
        {
            var method = info.GetMethod(message, scratch);
            if (info.Kind == JsonRpcMessageKind.Request)
            {
                HandleCall(message, in info, method, batch);
            }
            else
            {
                HandleNotification(message, in info, method);
            }
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private void HandleCall(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method, BatchReply? batch)
    {
        var idToken = message[info.IdToken];
        if (idToken.Length > MaxIdBytes)
        {
            // A pending call keeps its caller's id until it is answered, and every answer repeats it: ids are bounded,
            // so that a thousand pending calls with megabyte ids cannot hold a gigabyte the bounds do not see.
            RouterLog.InvalidMessage(_logger, ConnectionId, JsonRpcErrorCodes.InvalidRequest, "id too long");
            _penaltyMs = Math.Min(_penaltyMs + InvalidMessagePenaltyMs, MaxPenaltyMs);
            Fail(batch, default, JsonRpcErrorCodes.InvalidRequest, "Invalid Request",
                $"The id is {idToken.Length} bytes long; the router takes ids of at most {MaxIdBytes} bytes.");
            return;
        }

        var builtIn = BuiltInMethods.Match(method);
        if (builtIn != BuiltInMethod.None)
        {
            HandleBuiltIn(builtIn, message, in info, idToken, batch, reply: true);
            return;
        }

        var streamMethod = StreamMethods.Match(method);
        if (streamMethod is StreamMethod.EnumeratorNext or StreamMethod.EnumeratorAbort)
        {
            HandleStreamCall(message, in info, idToken, batch, abort: streamMethod == StreamMethod.EnumeratorAbort);
            return;
        }

        if (_router.Options.RequireRegistration && Name is null)
        {
            Fail(batch, idToken, RouterErrorCodes.NotRegistered, "Not registered", "Call register_client first.");
            return;
        }

        if (_router.IsShuttingDown)
        {
            Fail(batch, idToken, RouterErrorCodes.ShuttingDown, "Server shutting down", null);
            return;
        }

        if (_router.Memory.IsNearLimit)
        {
            _router.MemoryRefused(ConnectionId);
            Fail(batch, idToken, RouterErrorCodes.Overloaded, "Overloaded",
                "The router is near its memory budget; the call was not taken. Retry later.");
            return;
        }

        if (!MayCall(method, batch, idToken, reply: true))
        {
            return;
        }

        if (TryServe(message, in info, method, idToken, batch))
        {
            return;
        }

        if (!_router.Routes.TryGetValue(method, out var route) || route.PickProvider(localOnly: IsPeer) is not { } provider)
        {
            Fail(batch, idToken, JsonRpcErrorCodes.MethodNotFound, "Method not found", null);
            return;
        }

        Route(message, in info, idToken, batch, route, provider);
    }

    private void Route(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> idToken, BatchReply? batch, RouteEntry route, RouterConnection provider)
    {
        if (!TryBeginCall(batch, idToken))
        {
            return;
        }

        var call = _router.RentCall(this, provider, idToken, batch);
        call.Route = route;
        batch?.Expect();

        // The provider sees the router's id, so that answers can be matched whatever ids the callers chose.
        Span<byte> routerId = stackalloc byte[20];
        Utf8Formatter.TryFormat(call.RouterId, routerId, out var idLength);
        if (!TryForwardCall(message, in info, call, routerId[..idLength], out var forwarded))
        {
            return;
        }

        if (RouterTracing.IsEnabled)
        {
            forwarded = TraceForwarded(message, in info, forwarded, call, routerId[..idLength]);
        }

        // In the table before it is sent, so that the answer always finds it.
        if (!provider.TryAddInFlight(call))
        {
            forwarded.Return();
            _router.FailCall(call, RouterErrorCodes.ProviderDisconnected, "Provider disconnected");
            return;
        }

        Interlocked.Increment(ref _router.Counters.CallsRouted);
        provider.Send(forwarded); // if the provider is gone, its cleanup fails the call
        NoteQueuedFor(provider);
    }

    private void HandleNotification(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method)
    {
        var builtIn = BuiltInMethods.Match(method);
        if (builtIn != BuiltInMethod.None)
        {
            HandleBuiltIn(builtIn, message, in info, default, null, reply: false);
            return;
        }

        if (TryHandleStreamNotification(message, in info, method))
        {
            return;
        }

        if (_router.Options.RequireRegistration && Name is null)
        {
            return; // nothing may be answered to a notification
        }

        if (_router.Security is not null && !IsPeer)
        {
            HandleCheckedNotification(message, in info, method);
            return;
        }

        if (TryServe(message, in info, method, default, null) || !_router.Routes.TryGetValue(method, out var route))
        {
            return;
        }

        Deliver(message, route, route.PickProvider(localOnly: IsPeer), publish: true);
    }

    /// <summary>
    /// A notification under a security policy: to a host method or a provider it needs the call permission, to the
    /// event's subscribers the publish permission, each on its own; refusals are audited, never answered.
    /// </summary>
    private void HandleCheckedNotification(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method)
    {
        var policy = _router.Security!;
        var isHostMethod = _router.IsHostMethod(method);
        _router.Routes.TryGetValue(method, out var route);
        var provider = isHostMethod ? null : route?.PickProvider();
        var subscribers = !isHostMethod && route is not null && route.Subscribers.Length > 0;
        if (!isHostMethod && provider is null && !subscribers)
        {
            return;
        }

        if (PrincipalUnder(policy) is not { } principal)
        {
            RefuseUnauthenticated(policy, null, default, reply: false, method);
            return;
        }

        var toProvider = isHostMethod || provider is not null;
        if (toProvider && !principal.Call.IsAllowed(method, out var callRule))
        {
            RefusePermission(policy, principal, PermissionKind.Call, method, callRule, null, default, reply: false);
            toProvider = false;
        }

        if (subscribers && !principal.Publish.IsAllowed(method, out var publishRule))
        {
            RefusePermission(policy, principal, PermissionKind.Publish, method, publishRule, null, default, reply: false);
            subscribers = false;
        }

        if ((!toProvider && !subscribers) || !WithinRate(policy, principal, method, null, default, reply: false))
        {
            return;
        }

        if (isHostMethod)
        {
            TryServe(message, in info, method, default, null);
            return;
        }

        Deliver(message, route!, toProvider ? provider : null, subscribers);
    }

    private void Deliver(ReadOnlySpan<byte> message, RouteEntry route, RouterConnection? provider, bool publish)
    {
        if (RouterTracing.IsEnabled)
        {
            DeliverTraced(message, route, provider, publish);
            return;
        }

        Deliver(message, message, route, provider, publish);
    }

    /// <summary>Sends a notification to its provider and, as an event, to its subscribers (each its own bytes).</summary>
    private void Deliver(ReadOnlySpan<byte> toProvider, ReadOnlySpan<byte> toSubscribers, RouteEntry route, RouterConnection? provider, bool publish)
    {
        var counters = _router.Counters;
        if (provider is not null)
        {
            provider.Send(ReplyWriter.Copy(toProvider));
            Interlocked.Increment(ref counters.NotificationsRouted);
            NoteQueuedFor(provider);
        }

        if (publish)
        {
            _router.Publish(toSubscribers, route.Subscribers, this, provider);
        }
    }

    private void HandleAnswer(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        // Only a call that was sent to this very connection can be answered by it.
        if (!info.TryGetInt64Id(out var routerId) || !TryRemoveInFlight(routerId, out var call))
        {
            Interlocked.Increment(ref _router.Counters.AnswersDropped);
            RouterLog.AnswerDropped(_logger, ConnectionId, Name);
            return;
        }

        var caller = call.Caller;
        CompleteRouted(call, message, in info);
        NoteAnsweredTo(caller);
    }

    /// <summary>Counts an error answered to this connection from elsewhere (e.g. a batch whose replies did not fit).</summary>
    internal void CountError() => Interlocked.Increment(ref _router.Counters.Errors);

    private void Fail(BatchReply? batch, ReadOnlySpan<byte> idToken, int code, string message, string? data)
    {
        Interlocked.Increment(ref _router.Counters.Errors);
        ReplyWriter.Error(this, batch, idToken, code, message, data);
    }
}
