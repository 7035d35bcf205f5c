namespace JsonRpc.Server;

/// <summary>
/// JWT bearer tokens: the signature is checked against the configured keys (RS256, ES256 or HS256 only; <c>alg: none</c>
/// and every other algorithm are refused), <c>exp</c> and <c>nbf</c> are checked with <see cref="ClockSkew"/>, and
/// <c>iss</c> and <c>aud</c> against the lists when they are given. The identity is the <see cref="IdentityClaim"/>
/// claim, its roles the <see cref="RolesClaim"/> claim (a string or an array).
/// </summary>
public sealed class JsonRpcJwtOptions
{
    /// <summary>Issuers accepted; empty accepts any (not advised).</summary>
    public IList<string> Issuers { get; } = [];

    /// <summary>Audiences accepted; empty accepts any (not advised).</summary>
    public IList<string> Audiences { get; } = [];

    /// <summary>PEM files of public keys (RSA or EC; a certificate's key too) for RS256 and ES256.</summary>
    public IList<string> KeyFiles { get; } = [];

    /// <summary>A JWKS file (<c>{"keys":[…]}</c>) of public keys.</summary>
    public string? JwksFile { get; set; }

    /// <summary>Shared secrets for HS256, base64-encoded, at least 32 bytes each.</summary>
    public IList<string> HmacKeys { get; } = [];

    /// <summary>The claim that names the identity. Default <c>sub</c>.</summary>
    public string IdentityClaim { get; set; } = "sub";

    /// <summary>The claim that lists the identity's roles. Default <c>roles</c>.</summary>
    public string RolesClaim { get; set; } = "roles";

    /// <summary>Tolerance for <c>exp</c> and <c>nbf</c>. Default 30 s.</summary>
    public TimeSpan ClockSkew { get; set; } = TimeSpan.FromSeconds(30);
}
