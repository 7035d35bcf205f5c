using System.Text;
using JsonRpc.Protocol;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Security;

namespace JsonRpc.Server.Routing;

// Who this connection is and what it may do. With no security policy configured every check is one null test. A
// cluster peer is never checked here: its node checked its own client's call before forwarding it.
internal sealed partial class RouterConnection
{
    private readonly Lock _authLock = new();
    private SecurityView? _view;
    private AuthenticationSource? _authSource;
    private IdentityState? _connectionCounted;
    private IdentityState? _flightState;
    private Timer? _expiryTimer;

    // Rate refusals since this connection last had a call taken (read loop only); see WithinRate.
    private int _rateRefusalsInRow;
    private const int RateFloodRefusals = 32;
    private DateTime? _expiredAt;

    /// <summary>
    /// The principal this connection acts as under <paramref name="policy"/>: the identity it authenticated as, or the
    /// anonymous principal (null when anonymous connections may do nothing). Moves to a reloaded policy on first use.
    /// </summary>
    internal RouterPrincipal? PrincipalUnder(SecurityPolicy policy)
    {
        var view = Volatile.Read(ref _view);
        return view is not null && view.Policy == policy && (view.Deadline == long.MaxValue || Environment.TickCount64 < view.Deadline)
            ? view.Principal
            : Refresh(policy);
    }

    /// <summary>The identity for logs and lists: the authenticated one, or null.</summary>
    internal string? Identity => _router.Security is { } policy && PrincipalUnder(policy) is { IsAuthenticated: true } p ? p.Identity : null;

    private RouterPrincipal? Refresh(SecurityPolicy policy)
    {
        lock (_authLock)
        {
            var source = _authSource;
            var authenticated = source is null ? null : policy.Reauthenticate(source);
            if (source is { Expires: { } expires } && authenticated is null && expires <= DateTime.UtcNow)
            {
                // A JWT that expired while the connection stayed open: it is unauthenticated from now on, as after a
                // reload that removed its key (it may authenticate again).
                _authSource = null;
                _expiredAt = expires;
                RouterLog.CredentialsExpired(_logger, ConnectionId, source.Key, expires);
            }

            var principal = authenticated ?? policy.Anonymous;

            // The connection counts against the identity it is now: a reload may have moved its token to another
            // identity (which gets it even over its limit: it is open already) or to none.
            var counted = principal is { IsAuthenticated: true } ? principal.State : null;
            if (_connectionCounted != counted)
            {
                _connectionCounted?.CloseConnection();
                counted?.OpenConnection();
                _connectionCounted = counted;
            }

            Volatile.Write(ref _view, new SecurityView(policy, principal, authenticated is null ? long.MaxValue : source!.Deadline()));
            return principal;
        }
    }

    /// <summary>
    /// Sets who this connection is, after a token, JWT or certificate was accepted; counts it against the identity's
    /// connection quota. False (nothing changed) when the identity already has its most connections.
    /// </summary>
    internal bool SignIn(SecurityPolicy policy, RouterPrincipal principal, AuthenticationSource source, string method, out int limit)
    {
        lock (_authLock)
        {
            limit = 0;
            if (_connectionCounted != principal.State)
            {
                if (!principal.State.TryOpenConnection(out limit))
                {
                    return false;
                }

                _connectionCounted?.CloseConnection();
                _connectionCounted = principal.State;
            }

            _authSource = source;
            _expiredAt = null;
            Volatile.Write(ref _view, new SecurityView(policy, principal, source.Deadline()));
            ArmExpiry(source);
        }

        RouterLog.Authenticated(_logger, ConnectionId, principal.Identity, method);
        return true;
    }

    /// <summary>Releases what the connection held against its identity's quota. Once, when it closes.</summary>
    private void SignOut()
    {
        lock (_authLock)
        {
            _expiryTimer?.Dispose();
            _expiryTimer = null;
            _connectionCounted?.CloseConnection();
            _connectionCounted = null;
        }
    }

    // A connection whose token expires loses what its identity allowed when it does, not only on its next message: its
    // registrations and subscriptions are checked then as on a reload (a provider that only answers would otherwise keep
    // receiving calls). The timer fires a little late on purpose: the token must have expired by the wall clock too.
    private void ArmExpiry(AuthenticationSource source)
    {
        _expiryTimer?.Dispose();
        _expiryTimer = null;
        var deadline = source.Deadline();
        if (deadline != long.MaxValue)
        {
            var due = TimeSpan.FromMilliseconds(Math.Min(deadline - Environment.TickCount64 + 1000, int.MaxValue - 1));
            _expiryTimer = new Timer(static state =>
            {
                var connection = (RouterConnection)state!;
                if (connection._router.Security is { } policy)
                {
                    connection.ApplySecurity(policy);
                }
            }, this, due, Timeout.InfiniteTimeSpan);
        }
    }

    /// <summary>
    /// On a reload: moves to <paramref name="policy"/> and unregisters the methods and events the connection may no
    /// longer provide or subscribe to. Returns how many were removed.
    /// </summary>
    internal int ApplySecurity(SecurityPolicy? policy)
    {
        if (policy is null || IsPeer)
        {
            return 0;
        }

        var principal = Refresh(policy);
        List<(RouteEntry Route, bool Provider)>? revoked = null;
        lock (_router.RegistryLock)
        {
            foreach (var route in Provided)
            {
                if (principal is null || !principal.Provide.IsAllowed(route.NameUtf8, out _))
                {
                    (revoked ??= []).Add((route, true));
                }
            }

            foreach (var route in Subscribed)
            {
                if (principal is null || !principal.Subscribe.IsAllowed(route.NameUtf8, out _))
                {
                    (revoked ??= []).Add((route, false));
                }
            }
        }

        if (revoked is null)
        {
            return 0;
        }

        foreach (var (route, provider) in revoked)
        {
            var removed = provider ? _router.RemoveProvider(this, route.NameUtf8) : _router.RemoveSubscriber(this, route.NameUtf8);
            if (removed)
            {
                RouterLog.RegistrationRevoked(_logger, principal?.Identity ?? SecurityPolicy.AnonymousIdentity, ConnectionId,
                    provider ? "provide" : "subscribe to", route.Name);
            }
        }

        return revoked.Count;
    }

    /// <summary>
    /// Whether this connection may call <paramref name="method"/> (a routed or host method) now: authenticated or
    /// allowed anonymously, allowed to call it, and within its identity's call rate. Otherwise answers the refusal
    /// (when <paramref name="reply"/>) and audits it.
    /// </summary>
    private bool MayCall(ReadOnlySpan<byte> method, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
        => May(PermissionKind.Call, method, batch, idToken, reply, out var policy, out var principal)
            && (principal is null || WithinRate(policy!, principal, method, batch, idToken, reply));

    /// <summary>Checks one kind of permission on a name (registration, subscription, publication, client name).</summary>
    private bool May(PermissionKind kind, ReadOnlySpan<byte> name, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
        => May(kind, name, batch, idToken, reply, out _, out _);

    // Answers (when asked to) and audits a refusal. The principal checked is given back, null when nothing is checked
    // (no policy, a cluster peer).
    private bool May(PermissionKind kind, ReadOnlySpan<byte> name, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply,
        out SecurityPolicy? policy, out RouterPrincipal? principal)
    {
        principal = null;
        policy = _router.Security;
        if (policy is null || IsPeer)
        {
            return true;
        }

        principal = PrincipalUnder(policy);
        if (principal is null)
        {
            RefuseUnauthenticated(policy, batch, idToken, reply, name);
            return false;
        }

        if (!principal.Get(kind).IsAllowed(name, out var rule))
        {
            RefusePermission(policy, principal, kind, name, rule, batch, idToken, reply);
            return false;
        }

        return true;
    }

    /// <summary>Whether the connection may use the router's reports (lists): authenticated, or allowed anonymously.</summary>
    private bool MaySee(BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply, ReadOnlySpan<byte> method)
    {
        if (_router.Security is not { } policy || IsPeer || PrincipalUnder(policy) is not null)
        {
            return true;
        }

        RefuseUnauthenticated(policy, batch, idToken, reply, method);
        return false;
    }

    private bool WithinRate(SecurityPolicy policy, RouterPrincipal principal, ReadOnlySpan<byte> method, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
    {
        var state = principal.State;
        if (state.TryAcquireRate(out var retryAfter))
        {
            _rateRefusalsInRow = 0;
            Interlocked.Increment(ref state.Calls);
            return true;
        }

        Interlocked.Increment(ref state.RateLimited);
        Interlocked.Increment(ref state.Refusals);

        // Each refusal is answered at once. A connection that keeps calling past its rate (RateFloodRefusals refusals
        // without a call taken between them) is then read only once the identity's bucket has a call again (within
        // the read pause's cap): a flood is held to the rate through TCP and costs the router a few refusals per
        // pause instead of one for every call it can write, while a client merely bursting past it is told at once.
        if (++_rateRefusalsInRow >= RateFloodRefusals)
        {
            _rateRefusalsInRow = 0;
            _penaltyMs = Math.Min(Math.Max(_penaltyMs, (int)Math.Ceiling(retryAfter.TotalMilliseconds)), MaxPenaltyMs);
        }
        var what = Encoding.UTF8.GetString(method);
        _router.Audit.Refused(RefusalReason.Rate, principal.Identity, ConnectionId, what, "over its calls per second", policy.AuditLogsPerSecond);
        if (reply)
        {
            WriteRefusal(batch, idToken, RouterErrorCodes.QuotaExceeded, "Quota exceeded", RefusalReason.Rate, "method"u8, what,
                principal.Identity, $"{principal.Identity} is over its calls per second.", retryAfter);
        }

        return false;
    }

    /// <summary>
    /// Counts a call against the identity's calls in flight (with the connection's own pending count already taken).
    /// Calls are charged to the identity the connection had when its first pending call began, until none is pending,
    /// so that a reload in between never unbalances the count.
    /// </summary>
    private bool TryBeginIdentityCall(int pending, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
    {
        if (pending == 1)
        {
            Volatile.Write(ref _flightState, _router.Security is { } p && !IsPeer ? PrincipalUnder(p)?.State : null);
        }

        var state = Volatile.Read(ref _flightState);
        if (state is null || state.TryBeginCall(out var limit))
        {
            return true;
        }

        if (!reply)
        {
            return false; // the router's own read-ahead: no refusal to report, it just does not happen
        }

        Interlocked.Increment(ref state.Refusals);
        _router.Audit.Refused(RefusalReason.InFlight, state.Identity, ConnectionId, null, $"at its {limit} calls in flight",
            _router.Security?.AuditLogsPerSecond ?? 10);
        WriteRefusal(batch, idToken, RouterErrorCodes.QuotaExceeded, "Quota exceeded", RefusalReason.InFlight, default, null,
            state.Identity, $"{state.Identity} already has {limit} calls waiting for answers.", TimeSpan.Zero);
        return false;
    }

    /// <summary>The identity's side of <see cref="CallFinished"/>: before the connection's own count drops.</summary>
    private void EndIdentityCall() => Volatile.Read(ref _flightState)?.EndCall();

    private void RefuseUnauthenticated(SecurityPolicy policy, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply, ReadOnlySpan<byte> what)
    {
        var name = Encoding.UTF8.GetString(what);
        var expired = _expiredAt;
        _router.Audit.Refused(RefusalReason.NotAuthenticated, null, ConnectionId, name, expired is null ? "not authenticated" : "token expired",
            policy.AuditLogsPerSecond);
        if (reply)
        {
            WriteRefusal(batch, idToken, RouterErrorCodes.NotAuthenticated, "Not authenticated", RefusalReason.NotAuthenticated, "method"u8, name,
                null, expired is { } at
                    ? $"The connection's token expired at {at:O}: authenticate again with a fresh one."
                    : "Authenticate first: the authenticate method or register_client with a token, or Authorization: Bearer over HTTP.", null);
        }
    }

    private void RefusePermission(SecurityPolicy policy, RouterPrincipal principal, PermissionKind kind, ReadOnlySpan<byte> name, string? rule,
        BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
    {
        Interlocked.Increment(ref principal.State.Refusals);
        var what = Encoding.UTF8.GetString(name);
        var permission = PermissionKinds.Name(kind);
        var why = rule is null ? $"no {permission} allow rule matches"
            : rule.StartsWith(SubjectPattern.ClaimPrefix, StringComparison.Ordinal)
                ? $"'{rule[SubjectPattern.ClaimPrefix.Length..]}' is claimed by another identity's {(kind == PermissionKind.Provide ? "Provide" : "ClientNames")} allow list, and {principal.Identity} has none of its own"
                : $"denied by '{rule}'";
        _router.Audit.Refused(RefusalReasons.For(kind), principal.Identity, ConnectionId, what, $"{permission}: {why}", policy.AuditLogsPerSecond);
        if (reply)
        {
            var key = kind switch
            {
                PermissionKind.Publish or PermissionKind.Subscribe => "event"u8,
                PermissionKind.ClientName => "name"u8,
                _ => "method"u8,
            };
            WriteRefusal(batch, idToken, RouterErrorCodes.PermissionDenied, "Permission denied", RefusalReasons.For(kind), key, what,
                principal.Identity, $"{principal.Identity} may not {permission} '{what}': {why}.", null);
        }
    }

    /// <summary>
    /// Answers a refusal: <c>{"code":…,"message":…,"data":{"permission":"call","method":"billing.refund","identity":"web",
    /// "detail":"…","retry_after_ms":…}}</c>.
    /// </summary>
    private void WriteRefusal(BatchReply? batch, ReadOnlySpan<byte> idToken, int code, string message, RefusalReason reason,
        ReadOnlySpan<byte> key, string? what, string? identity, string detail, TimeSpan? retryAfter)
    {
        Interlocked.Increment(ref _router.Counters.Errors);
        var writer = ReplyWriter.Begin(idToken);
        writer.WritePropertyName("error"u8);
        writer.WriteStartObject();
        writer.WriteNumber("code"u8, code);
        writer.WriteString("message"u8, message);
        writer.WriteStartObject("data"u8);
        writer.WriteString("permission"u8, RefusalReasons.Name(reason));
        if (what is not null && !key.IsEmpty)
        {
            writer.WriteString(key, what);
        }

        if (identity is not null)
        {
            writer.WriteString("identity"u8, identity);
        }

        writer.WriteString("detail"u8, detail);
        if (retryAfter is { } wait)
        {
            writer.WriteNumber("retry_after_ms"u8, (long)Math.Ceiling(wait.TotalMilliseconds));
        }

        writer.WriteEndObject();
        writer.WriteEndObject();
        ReplyWriter.Finish(writer, this, batch);
    }

    /// <summary>
    /// Whom the lists and counters are written for: null sees everything (no policy, a cluster peer, or an identity
    /// with <see cref="JsonRpcIdentityRules.Monitor"/>); otherwise that principal sees what it may call and its own counters.
    /// </summary>
    internal RouterPrincipal? Viewer
        => _router.Security is { } policy && !IsPeer && PrincipalUnder(policy) is { } principal && !principal.Monitor ? principal
            : _router.Security is { } p && !IsPeer && PrincipalUnder(p) is null ? SecurityPolicy.Nobody : null;

    /// <summary>Who owns this connection's registrations, for exclusive ones: its identity, or the connection itself.</summary>
    internal string OwnerKey
        => _router.Security is { } policy && PrincipalUnder(policy) is { IsAuthenticated: true } principal ? "identity:" + principal.Identity : "connection:" + ConnectionId;

    /// <summary>Signs in at the start with what the transport proved (a bearer header, a client certificate).</summary>
    internal bool SignInFromTransport(TransportIdentity identity)
    {
        if (SignIn(identity.Policy, identity.Principal, identity.Source, identity.Method, out var limit))
        {
            return true;
        }

        RefuseConnections(identity.Policy, identity.Principal, limit, null, default, reply: true);
        return false;
    }

    private void AuthenticateCall(ReadOnlySpan<byte> @params, in BuiltInCall call)
    {
        if (!ParamReader.TryGetString(@params, RouterWire.TokenMemberUtf8, 0, required: true, out var token, out var problem))
        {
            call.Fail(JsonRpc.Protocol.JsonRpcErrorCodes.InvalidParams, "Invalid params", problem);
            return;
        }

        if (_router.Security is not { HasAuthentication: true } policy)
        {
            if (_router.Options.AccessToken is null)
            {
                // Nothing to authenticate against: everyone may do everything, as the client is told.
                call.Reply(static (w, _) => WriteIdentity(w, SecurityPolicy.AnonymousIdentity, []));
                return;
            }

            if (!_router.CheckAccessToken(token))
            {
                RouterLog.RegistrationRefused(_logger, ConnectionId, "authenticate: wrong access token or none configured");
                call.Fail(RouterErrorCodes.AccessDenied, "Access denied", "The token was refused.");
                Close(CloseReason.AccessDenied);
                return;
            }

            call.Reply(static (w, _) => WriteIdentity(w, SecurityPolicy.AccessTokenIdentity, []));
            return;
        }

        if (SignInWithToken(policy, token!, in call))
        {
            call.Reply(static (w, c) =>
            {
                var principal = c.PrincipalUnder(c._router.Security!)!;
                WriteIdentity(w, principal.Identity, principal.Roles);
            });
        }
    }

    private static void WriteIdentity(System.Text.Json.Utf8JsonWriter writer, string identity, string[] roles)
    {
        writer.WriteStartObject();
        writer.WriteString("identity"u8, identity);
        writer.WriteStartArray("roles"u8);
        foreach (var role in roles)
        {
            writer.WriteStringValue(role);
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>
    /// Authenticates with a token given in a call. A refused token is answered Access denied and closes the connection
    /// (as the single access token always did), so that a connection cannot be used to guess tokens.
    /// </summary>
    private bool SignInWithToken(SecurityPolicy policy, string token, in BuiltInCall call)
    {
        var principal = _router.Authenticate(policy, token, out var source, out var failure);
        if (principal is null)
        {
            _router.Audit.Refused(RefusalReason.Authentication, null, ConnectionId, null, failure, policy.AuditLogsPerSecond);
            call.Fail(RouterErrorCodes.AccessDenied, "Access denied", "The token was refused.");
            Close(CloseReason.AccessDenied);
            return false;
        }

        var current = Volatile.Read(ref _authSource) is null ? null : PrincipalUnder(policy);
        if (current is { IsAuthenticated: true } && current.Identity != principal.Identity)
        {
            call.Fail(RouterErrorCodes.AccessDenied, "Access denied", $"This connection is authenticated as {current.Identity} already.");
            return false;
        }

        if (!SignIn(policy, principal, source!, source!.Kind == AuthenticationKind.Jwt ? "JWT" : "token", out var limit))
        {
            call.RefuseConnections(policy, principal, limit);
            return false;
        }

        return true;
    }

    private void RefuseConnections(SecurityPolicy policy, RouterPrincipal principal, int limit, BatchReply? batch, ReadOnlySpan<byte> idToken, bool reply)
    {
        Interlocked.Increment(ref principal.State.Refusals);
        var identity = principal.Identity;
        _router.Audit.Refused(RefusalReason.Connections, identity, ConnectionId, null, $"at its {limit} connections", policy.AuditLogsPerSecond);
        if (reply)
        {
            WriteRefusal(batch, idToken, RouterErrorCodes.QuotaExceeded, "Quota exceeded", RefusalReason.Connections, default, null, identity,
                $"{identity} already has {limit} connections open.", TimeSpan.FromSeconds(1));
        }

        Close(CloseReason.QuotaExceeded);
    }

    // Deadline: the Environment.TickCount64 at which the principal's token expires (long.MaxValue: it does not).
    private sealed record SecurityView(SecurityPolicy Policy, RouterPrincipal? Principal, long Deadline = long.MaxValue);
}
