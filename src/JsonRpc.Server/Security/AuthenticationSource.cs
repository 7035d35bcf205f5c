namespace JsonRpc.Server.Security;

internal enum AuthenticationKind
{
    Token,
    Jwt,
    Certificate,
}

/// <summary>
/// How a connection authenticated, kept (without the secret: a token's hash, a certificate's SHA-256) so that a reloaded
/// policy can tell whether it still authenticates the same identity.
/// </summary>
/// <remarks>
/// For a certificate, <see cref="Key"/> is its SHA-256 thumbprint and <see cref="Sha1"/> its SHA-1 one, since a mapping may
/// pin either, and <see cref="Certificate"/> the certificate (public), so that a reload can map it again and check that
/// it still chains to the configured CA. For a JWT, <see cref="Key"/> is the identity and <see cref="Jwt"/> the token itself (signed, not a shared
/// secret), so that a reload can check it again against the keys, issuers, audiences and lifetime then in force, and
/// <see cref="Expires"/> when it stops authenticating anyone (its <c>exp</c> plus the clock skew, UTC): the connection is
/// held to that even while it stays open.
/// </remarks>
internal sealed record AuthenticationSource(AuthenticationKind Kind, string Key, string? Subject, string[] Roles, string? Sha1 = null, string? Jwt = null,
    System.Security.Cryptography.X509Certificates.X509Certificate2? Certificate = null, DateTime? Expires = null)
{
    /// <summary>
    /// The <see cref="Environment.TickCount64"/> at which this source no longer authenticates anyone, or
    /// <see cref="long.MaxValue"/> when it does not expire.
    /// </summary>
    public long Deadline()
        => Expires is { } expires
            ? Environment.TickCount64 + (long)Math.Clamp((expires - DateTime.UtcNow).TotalMilliseconds, 0, long.MaxValue / 4)
            : long.MaxValue;
}
