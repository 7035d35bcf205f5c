using System.Collections.Concurrent;
using System.Security.Cryptography.X509Certificates;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.Routing;
using JsonRpc.Server.Security;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    private readonly ConcurrentDictionary<string, IdentityState> _identities = new(StringComparer.Ordinal);
    private readonly Lock _securityLock = new();
    private SecurityPolicy? _security;

    /// <summary>The security policy in force, or null when none is configured (then nothing is checked).</summary>
    internal SecurityPolicy? Security => Volatile.Read(ref _security);

    internal RefusalAudit Audit { get; }

    /// <summary>The per-identity state, made on first use and kept across reloads.</summary>
    internal IdentityState IdentityStateFor(string identity) => _identities.GetOrAdd(identity, static name => new IdentityState(name));

    internal ICollection<IdentityState> IdentityStates => _identities.Values;

    // Stops the identities' token buckets (each has a replenishing timer).
    private void DisposeIdentities()
    {
        foreach (var state in _identities.Values)
        {
            state.Dispose();
        }
    }

    // A JWT configuration without issuers or audiences works (any token the keys signed is accepted, whoever it was
    // issued for), but is rarely what was meant: said once per configuration put in force.
    private void WarnAboutJwt(JsonRpcSecurityOptions? security)
    {
        if (security?.Jwt is { } jwt && (jwt.Issuers.Count == 0 || jwt.Audiences.Count == 0))
        {
            RouterLog.JwtUnscoped(Logger, jwt.Issuers.Count == 0 ? "Issuers" : "Audiences");
        }
    }

    /// <summary>
    /// Puts a new security configuration in force while the router runs. Each connection is held to it from its next
    /// message: an identity removed (its token, key or certificate mapping gone) is treated as unauthenticated, and
    /// methods or subscriptions it may no longer hold are removed at once. Open connections are not closed.
    /// </summary>
    /// <param name="security">The new configuration; null to check nothing (as with no configuration).</param>
    /// <exception cref="InvalidOperationException">The configuration cannot work (the message names each bad entry); the one in force stays.</exception>
    public void UpdateSecurity(JsonRpcSecurityOptions? security)
    {
        lock (_securityLock)
        {
            var policy = SecurityPolicy.Create(security, Options.AccessToken, IdentityStateFor);
            Volatile.Write(ref _security, policy);
            WarnAboutJwt(security);
            var removed = 0;
            foreach (var connection in _connections.Keys)
            {
                removed += connection.ApplySecurity(policy);
            }

            RouterLog.SecurityReloaded(Logger, _connections.Count, removed);
        }
    }

    /// <summary>
    /// Authenticates a bearer token (static or JWT) for a connection: the principal, or null with the reason (for the
    /// audit log, never for the client).
    /// </summary>
    internal RouterPrincipal? Authenticate(SecurityPolicy policy, string token, out AuthenticationSource? source, out string failure)
    {
        failure = "unknown token";
        source = null;
        if (policy.AuthenticateToken(token, out var tokenSource) is { } principal)
        {
            source = tokenSource;
            return principal;
        }

        if (policy.Jwt is { } jwt && JwtValidator.LooksLikeJwt(token))
        {
            if (jwt.Validate(token, out var why) is { } claims)
            {
                source = new AuthenticationSource(AuthenticationKind.Jwt, claims.Identity, null, claims.Roles, Jwt: token, Expires: claims.Expires);
                return policy.Resolve(claims.Identity, claims.Roles);
            }

            failure = why ?? "invalid token";
        }

        return null;
    }

    /// <summary>
    /// Writes <c>"refusals":{"call":3,…},"identities":{"web":{"connections":2,"calls":120,"in_flight":1,"refusals":3,
    /// "rate_limited":0}}</c>.
    /// </summary>
    private void WriteSecurityStats(System.Text.Json.Utf8JsonWriter writer, RouterPrincipal? viewer)
    {
        writer.WriteStartObject("refusals"u8);
        foreach (var reason in RefusalReasons.All)
        {
            writer.WriteNumber(RefusalReasons.Name(reason), Audit.Count(reason));
        }

        writer.WriteEndObject();
        var states = new List<IdentityState>(_identities.Values);
        states.Sort(static (a, b) => string.CompareOrdinal(a.Identity, b.Identity));
        writer.WriteStartObject("identities"u8);
        foreach (var state in states)
        {
            if (viewer is not null && (!viewer.IsAuthenticated || viewer.Identity != state.Identity))
            {
                continue;
            }

            writer.WriteStartObject(state.Identity);
            writer.WriteNumber("connections"u8, Volatile.Read(ref state.Connections));
            writer.WriteNumber("calls"u8, Volatile.Read(ref state.Calls));
            writer.WriteNumber("in_flight"u8, Volatile.Read(ref state.InFlight));
            writer.WriteNumber("refusals"u8, Volatile.Read(ref state.Refusals));
            writer.WriteNumber("rate_limited"u8, Volatile.Read(ref state.RateLimited));
            writer.WriteEndObject();
        }

        writer.WriteEndObject();
    }

    /// <summary>The identity a TLS client certificate maps to under the policy in force, or null.</summary>
    internal TransportIdentity? IdentityFromCertificate(X509Certificate2? certificate)
    {
        if (certificate is null || Security is not { UsesClientCertificates: true } policy)
        {
            return null;
        }

        return policy.AuthenticateCertificate(certificate, out var source) is { } principal
            ? new TransportIdentity(policy, principal, source, "client certificate")
            : null;
    }
}
