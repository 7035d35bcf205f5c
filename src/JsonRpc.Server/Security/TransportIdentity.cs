namespace JsonRpc.Server.Security;

/// <summary>What a transport proved about its client before the connection began: a bearer header, a client certificate.</summary>
internal sealed record TransportIdentity(SecurityPolicy Policy, RouterPrincipal Principal, AuthenticationSource Source, string Method);
