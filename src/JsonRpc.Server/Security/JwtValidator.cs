using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace JsonRpc.Server.Security;

/// <summary>
/// Checks JWT bearer tokens with Microsoft.IdentityModel: signature against the configured keys (RS256, ES256, HS256
/// only, so <c>alg: none</c> and algorithm confusion are refused), lifetime, issuer and audience.
/// </summary>
internal sealed class JwtValidator
{
    private static readonly string[] Algorithms = [SecurityAlgorithms.RsaSha256, SecurityAlgorithms.EcdsaSha256, SecurityAlgorithms.HmacSha256];

    private readonly JsonWebTokenHandler _handler = new() { MapInboundClaims = false };
    private readonly TokenValidationParameters _parameters;
    private readonly string _identityClaim;
    private readonly string _rolesClaim;

    private JwtValidator(TokenValidationParameters parameters, string identityClaim, string rolesClaim)
    {
        _parameters = parameters;
        _identityClaim = identityClaim;
        _rolesClaim = rolesClaim;
    }

    public static JwtValidator? Create(JsonRpcJwtOptions options, List<string> problems)
    {
        var keys = new List<SecurityKey>();
        for (var i = 0; i < options.KeyFiles.Count; i++)
        {
            var path = options.KeyFiles[i];
            try
            {
                keys.Add(ReadPemKey(File.ReadAllText(path)));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or CryptographicException or ArgumentException)
            {
                problems.Add($"Security:Jwt:KeyFiles:{i} '{path}' is not a readable PEM public key or certificate: {ex.Message}");
            }
        }

        if (options.JwksFile is { } jwks)
        {
            try
            {
                var set = new JsonWebKeySet(File.ReadAllText(jwks));
                var signingKeys = set.GetSigningKeys();
                if (signingKeys.Count == 0)
                {
                    problems.Add($"Security:Jwt:JwksFile '{jwks}' holds no usable signing key.");
                }

                keys.AddRange(signingKeys);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or System.Text.Json.JsonException)
            {
                problems.Add($"Security:Jwt:JwksFile '{jwks}' is not a readable JWKS file: {ex.Message}");
            }
        }

        for (var i = 0; i < options.HmacKeys.Count; i++)
        {
            byte[]? secret = null;
            try
            {
                secret = Convert.FromBase64String(options.HmacKeys[i]);
            }
            catch (FormatException)
            {
            }

            if (secret is not { Length: >= 32 })
            {
                problems.Add($"Security:Jwt:HmacKeys:{i} must be base64 of at least 32 bytes.");
                continue;
            }

            keys.Add(new SymmetricSecurityKey(secret));
        }

        if (keys.Count == 0)
        {
            problems.Add("Security:Jwt needs at least one key: KeyFiles, JwksFile or HmacKeys.");
        }

        if (string.IsNullOrWhiteSpace(options.IdentityClaim))
        {
            problems.Add("Security:Jwt:IdentityClaim must name a claim.");
        }

        if (options.ClockSkew < TimeSpan.Zero)
        {
            problems.Add("Security:Jwt:ClockSkew must not be negative.");
        }

        var parameters = new TokenValidationParameters
        {
            IssuerSigningKeys = keys,
            ValidAlgorithms = Algorithms,
            RequireSignedTokens = true,
            RequireExpirationTime = true,
            ValidateLifetime = true,
            ClockSkew = options.ClockSkew,
            ValidateIssuer = options.Issuers.Count > 0,
            ValidIssuers = [.. options.Issuers],
            ValidateAudience = options.Audiences.Count > 0,
            ValidAudiences = [.. options.Audiences],
            ValidateIssuerSigningKey = false,
            TryAllIssuerSigningKeys = true,
            NameClaimType = options.IdentityClaim,
            RoleClaimType = options.RolesClaim,
        };
        return new JwtValidator(parameters, options.IdentityClaim, options.RolesClaim);
    }

    /// <summary>Whether <paramref name="token"/> has a JWT's shape (three base64url parts), so is checked as one.</summary>
    public static bool LooksLikeJwt(string token) => token.Count(static c => c == '.') == 2 && token.StartsWith("eyJ", StringComparison.Ordinal);

    /// <summary>
    /// The identity and roles of a valid token, and when it stops being valid (its <c>exp</c> plus the clock skew, UTC);
    /// otherwise null and why it was refused.
    /// </summary>
    public (string Identity, string[] Roles, DateTime Expires)? Validate(string token, out string? failure)
    {
        TokenValidationResult result;
        try
        {
            // With keys in memory (no metadata to fetch) validation completes synchronously.
            result = _handler.ValidateTokenAsync(token, _parameters).GetAwaiter().GetResult();
        }
        catch (Exception ex) when (ex is ArgumentException or SecurityTokenException)
        {
            failure = "malformed token";
            return null;
        }

        if (!result.IsValid)
        {
            failure = result.Exception switch
            {
                SecurityTokenExpiredException => "token expired",
                SecurityTokenNotYetValidException => "token not yet valid",
                SecurityTokenInvalidIssuerException => "wrong issuer",
                SecurityTokenInvalidAudienceException => "wrong audience",
                SecurityTokenInvalidAlgorithmException => "algorithm not allowed",
                SecurityTokenNoExpirationException => "token has no expiry",
                SecurityTokenMalformedException => "malformed token",
                SecurityTokenSignatureKeyNotFoundException or SecurityTokenInvalidSignatureException => "bad signature",
                _ => "invalid token",
            };
            return null;
        }

        var claims = result.ClaimsIdentity;
        var identity = claims.FindFirst(_identityClaim)?.Value;
        if (string.IsNullOrEmpty(identity))
        {
            failure = $"no '{_identityClaim}' claim";
            return null;
        }

        var roles = new List<string>();
        foreach (var claim in claims.FindAll(_rolesClaim))
        {
            if (!string.IsNullOrEmpty(claim.Value) && !roles.Contains(claim.Value))
            {
                roles.Add(claim.Value);
            }
        }

        roles.Sort(StringComparer.Ordinal);
        failure = null;
        return (identity, [.. roles], result.SecurityToken.ValidTo + _parameters.ClockSkew);
    }

    private static SecurityKey ReadPemKey(string pem)
    {
        if (pem.Contains("BEGIN CERTIFICATE", StringComparison.Ordinal))
        {
            return new X509SecurityKey(X509Certificate2.CreateFromPem(pem));
        }

        if (pem.Contains("BEGIN EC ", StringComparison.Ordinal))
        {
            var ec = ECDsa.Create();
            ec.ImportFromPem(pem);
            return new ECDsaSecurityKey(ec);
        }

        var rsa = RSA.Create();
        try
        {
            rsa.ImportFromPem(pem);
            return new RsaSecurityKey(rsa);
        }
        catch (Exception ex) when (ex is CryptographicException or ArgumentException)
        {
            rsa.Dispose();
            var ec = ECDsa.Create();
            ec.ImportFromPem(pem);
            return new ECDsaSecurityKey(ec);
        }
    }
}
