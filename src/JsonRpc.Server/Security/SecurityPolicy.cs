using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;

namespace JsonRpc.Server.Security;

/// <summary>
/// A <see cref="JsonRpcSecurityOptions"/> checked and compiled: token hashes, the JWT validator, certificate mappings,
/// and the merged permissions of each principal, made once and shared by its connections. Immutable: a reload builds a
/// new policy, and each connection moves to it on its next message.
/// </summary>
internal sealed class SecurityPolicy
{
    /// <summary>The identity name of connections that have not authenticated.</summary>
    public const string AnonymousIdentity = "(anonymous)";

    /// <summary>
    /// A viewer that may see nothing (an unauthenticated connection where anonymous ones may do nothing): stats show it
    /// only the router-wide counters.
    /// </summary>
    public static readonly RouterPrincipal Nobody = new(null!, AnonymousIdentity, [], authenticated: false, new IdentityState(AnonymousIdentity),
        CompiledPermission.DenyAll, CompiledPermission.DenyAll, CompiledPermission.DenyAll, CompiledPermission.DenyAll, CompiledPermission.DenyAll, monitor: false);

    /// <summary>The identity of the router's single <c>access_token</c>.</summary>
    public const string AccessTokenIdentity = "access_token";

    // Principals made for JWT role sets are cached up to this many; past it they are made per authentication.
    private const int MaxCachedPrincipals = 10_000;

    private readonly JsonRpcSecurityOptions _options;
    private readonly Func<string, IdentityState> _state;
    private readonly (byte[] Hash, string Identity, string[] Roles)[] _tokens;
    private readonly Dictionary<string, (string Identity, string[] Roles)> _thumbprints = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, (string Identity, string[] Roles)> _subjects = new(StringComparer.Ordinal);
    private readonly X509Certificate2Collection _clientCas = [];
    private readonly Dictionary<string, CompiledRules> _identities = new(StringComparer.Ordinal);
    private readonly Dictionary<string, CompiledRules> _roles = new(StringComparer.Ordinal);
    private readonly CompiledRules? _default;
    private readonly ConcurrentDictionary<string, RouterPrincipal> _principals = new(StringComparer.Ordinal);

    // Every Provide (and ClientNames) allow pattern configured anywhere: a name one of them matches is claimed, so that
    // an identity with no such allow list of its own (allowed anything else, as a NATS user without permissions) may not
    // provide it and take a share of another team's calls (or register under a name another team's clients go by).
    private readonly SubjectPattern[] _claims;
    private readonly SubjectPattern[] _nameClaims;

    // The names all of this policy's permissions may remember together (what the patterns decided for each).
    private readonly LearningBudget _learning = new(65_536);

    private SecurityPolicy(JsonRpcSecurityOptions options, string? accessToken, Func<string, IdentityState> state, List<string> problems)
    {
        _options = options;
        _state = state;
        var tokens = new List<(byte[], string, string[])>();
        for (var i = 0; i < options.Tokens.Count; i++)
        {
            var entry = options.Tokens[i];
            var path = $"Security:Tokens:{i}";
            if (string.IsNullOrWhiteSpace(entry.Identity))
            {
                problems.Add($"{path}:Identity must name an identity.");
            }

            byte[]? hash = null;
            if (entry.Token is { Length: > 0 } token && entry.Sha256 is null)
            {
                hash = SHA256.HashData(Encoding.UTF8.GetBytes(token));
            }
            else if (entry.Sha256 is { } hex && entry.Token is null)
            {
                try
                {
                    hash = Convert.FromHexString(hex.Trim());
                }
                catch (FormatException)
                {
                }

                if (hash is not { Length: SHA256.HashSizeInBytes })
                {
                    problems.Add($"{path}:Sha256 must be 64 hex digits (the SHA-256 of the token).");
                    hash = null;
                }
            }
            else
            {
                problems.Add($"{path} needs exactly one of Token and Sha256.");
            }

            if (hash is not null)
            {
                tokens.Add((hash, entry.Identity, [.. entry.Roles]));
            }
        }

        if (accessToken is not null)
        {
            tokens.Add((SHA256.HashData(Encoding.UTF8.GetBytes(accessToken)), AccessTokenIdentity, []));
        }

        _tokens = [.. tokens];
        Jwt = options.Jwt is { } jwt ? JwtValidator.Create(jwt, problems) : null;
        ReadCertificates(options, problems);

        foreach (var (name, rules) in options.Identities)
        {
            _identities[name] = CompiledRules.Create(rules, $"Security:Identities:{name}", problems);
        }

        foreach (var (name, rules) in options.Roles)
        {
            _roles[name] = CompiledRules.Create(rules, $"Security:Roles:{name}", problems);
        }

        _default = options.Default is { } d ? CompiledRules.Create(d, "Security:Default", problems) : null;
        var anonymousRules = options.Anonymous is { } a ? CompiledRules.Create(a, "Security:Anonymous", problems) : null;
        CompiledRules?[] everyRule = [.. _identities.Values, .. _roles.Values, _default, anonymousRules];
        _claims = Claims(everyRule, static r => r.Provide.Allow);
        _nameClaims = Claims(everyRule, static r => r.ClientNames.Allow);
        if (anonymousRules is not null)
        {
            Anonymous = Make(AnonymousIdentity, [], authenticated: false, [anonymousRules], anonymousRules.Quota, anonymousRules.Monitor);
        }

        if (options.AuditLogsPerSecond < 1)
        {
            problems.Add("Security:AuditLogsPerSecond must be at least 1.");
        }

        if (_identities.Count + _roles.Count > 0 && !HasAuthentication)
        {
            problems.Add("Security: Identities or Roles are configured, but nothing authenticates anyone (Tokens, Jwt, Certificates or access_token).");
        }
    }

    /// <summary>Whether any way to authenticate is configured (a connection may then be asked to).</summary>
    public bool HasAuthentication => _tokens.Length > 0 || Jwt is not null || _thumbprints.Count + _subjects.Count > 0;

    /// <summary>Whether client certificates are mapped (the TLS endpoints then ask for one).</summary>
    public bool UsesClientCertificates => _thumbprints.Count + _subjects.Count > 0;

    /// <summary>What unauthenticated connections may do, or null when they may do nothing but authenticate.</summary>
    public RouterPrincipal? Anonymous { get; }

    public JwtValidator? Jwt { get; }

    public int AuditLogsPerSecond => _options.AuditLogsPerSecond;

    /// <summary>
    /// Builds the policy for <paramref name="options"/> (and the router's single <paramref name="accessToken"/>), or
    /// null when they configure nothing, so that the router then checks nothing at all.
    /// </summary>
    /// <exception cref="InvalidOperationException">An entry cannot work; the message names each such entry.</exception>
    public static SecurityPolicy? Create(JsonRpcSecurityOptions? options, string? accessToken, Func<string, IdentityState> state)
    {
        if (ConfiguresNothing(options))
        {
            return null;
        }

        var problems = new List<string>();
        var policy = new SecurityPolicy(options, accessToken, state, problems);
        return problems.Count == 0 ? policy : throw new InvalidOperationException("Invalid security configuration: " + string.Join(" ", problems));
    }

    /// <summary>Whether <paramref name="options"/> configure nothing to check (then the router checks nothing at all).</summary>
    public static bool ConfiguresNothing([System.Diagnostics.CodeAnalysis.NotNullWhen(false)] JsonRpcSecurityOptions? options)
        => options is null || (!options.HasAuthentication && options.Anonymous is null && options.Identities.Count == 0
            && options.Roles.Count == 0 && options.Default is null);

    /// <summary>The principal a static token authenticates, or null. Compares with every configured hash in constant time.</summary>
    public RouterPrincipal? AuthenticateToken(string token, out AuthenticationSource source)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes(token), hash);
        var found = -1;
        for (var i = 0; i < _tokens.Length; i++)
        {
            // No early exit: the time taken does not depend on which token matched.
            if (CryptographicOperations.FixedTimeEquals(hash, _tokens[i].Hash))
            {
                found = i;
            }
        }

        source = new AuthenticationSource(AuthenticationKind.Token, Convert.ToHexString(hash), null, []);
        return found < 0 ? null : Resolve(_tokens[found].Identity, _tokens[found].Roles);
    }

    /// <summary>The principal a client certificate is mapped to, or null.</summary>
    public RouterPrincipal? AuthenticateCertificate(X509Certificate2 certificate, out AuthenticationSource source)
    {
        var sha256 = certificate.GetCertHashString(HashAlgorithmName.SHA256);
        source = new AuthenticationSource(AuthenticationKind.Certificate, sha256, null, [], certificate.Thumbprint, Certificate: certificate);
        if (_thumbprints.TryGetValue(sha256, out var mapped) || _thumbprints.TryGetValue(certificate.Thumbprint, out mapped))
        {
            return Resolve(mapped.Identity, mapped.Roles);
        }

        if (_subjects.TryGetValue(certificate.Subject, out mapped) && ChainsToClientCa(certificate))
        {
            source = source with { Subject = certificate.Subject };
            return Resolve(mapped.Identity, mapped.Roles);
        }

        return null;
    }

    /// <summary>
    /// Under this (possibly reloaded) policy, the principal of a connection that authenticated by
    /// <paramref name="source"/>, or null when that no longer authenticates anyone.
    /// </summary>
    public RouterPrincipal? Reauthenticate(AuthenticationSource source)
    {
        switch (source.Kind)
        {
            case AuthenticationKind.Token:
                var hash = Convert.FromHexString(source.Key);
                foreach (var (h, identity, roles) in _tokens)
                {
                    if (CryptographicOperations.FixedTimeEquals(hash, h))
                    {
                        return Resolve(identity, roles);
                    }
                }

                return null;
            case AuthenticationKind.Jwt:
                // Validated again: a key rotated out, an issuer or audience no longer accepted, or a token expired since
                // no longer authenticates anyone.
                return Jwt is not null && source.Jwt is { } jwt && Jwt.Validate(jwt, out _) is { } claims && claims.Identity == source.Key
                    ? Resolve(claims.Identity, claims.Roles)
                    : null;
            default:
                if (source.Certificate is { } certificate)
                {
                    // Mapped again as at the handshake: by thumbprint, or by subject when it still chains to the CA now configured.
                    try
                    {
                        return AuthenticateCertificate(certificate, out _);
                    }
                    catch (System.Security.Cryptography.CryptographicException)
                    {
                        // The certificate was released with its TLS stream: fall back to what was kept of it.
                    }
                }

                if (source.Subject is not null)
                {
                    return null; // a subject mapping needs the chain checked, which needs the certificate
                }

                if (_thumbprints.TryGetValue(source.Key, out var mapped)
                    || (source.Sha1 is { } sha1 && _thumbprints.TryGetValue(sha1, out mapped)))
                {
                    return Resolve(mapped.Identity, mapped.Roles);
                }

                return null;
        }
    }

    /// <summary>The principal of <paramref name="identity"/> with <paramref name="extraRoles"/> beside its configured ones.</summary>
    public RouterPrincipal Resolve(string identity, string[] extraRoles)
    {
        var key = extraRoles.Length == 0 ? identity : identity + "\n" + string.Join("\n", extraRoles);
        if (_principals.TryGetValue(key, out var cached))
        {
            return cached;
        }

        _identities.TryGetValue(identity, out var own);
        var roles = new List<string>(extraRoles);
        if (own is not null)
        {
            foreach (var role in own.Roles)
            {
                if (!roles.Contains(role))
                {
                    roles.Add(role);
                }
            }
        }

        var rules = new List<CompiledRules>();
        if (own is not null)
        {
            rules.Add(own);
        }

        JsonRpcQuota? quota = own?.Quota;
        foreach (var role in roles)
        {
            if (_roles.TryGetValue(role, out var r))
            {
                rules.Add(r);
                quota ??= r.Quota;
            }
        }

        if (_default is not null)
        {
            rules.Add(_default);
            quota ??= _default.Quota;
        }

        var monitor = rules.Exists(static r => r.Monitor);
        var principal = Make(identity, [.. roles], authenticated: true, rules, quota, monitor);
        if (_principals.Count < MaxCachedPrincipals)
        {
            principal = _principals.GetOrAdd(key, principal);
        }

        return principal;
    }

    private RouterPrincipal Make(string identity, string[] roles, bool authenticated, List<CompiledRules> rules, JsonRpcQuota? quota, bool monitor)
    {
        var state = _state(identity);
        state.Apply(quota);
        return new RouterPrincipal(this, identity, roles, authenticated, state,
            Merge(rules, static r => r.Provide, _learning, _claims), Merge(rules, static r => r.Call, _learning),
            Merge(rules, static r => r.Publish, _learning), Merge(rules, static r => r.Subscribe, _learning),
            Merge(rules, static r => r.ClientNames, _learning, _nameClaims), monitor);
    }

    private static SubjectPattern[] Claims(IEnumerable<CompiledRules?> rules, Func<CompiledRules, SubjectPattern[]?> allow)
    {
        var claims = new List<SubjectPattern>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var rule in rules)
        {
            foreach (var pattern in (rule is null ? null : allow(rule)) ?? [])
            {
                if (seen.Add(pattern.Text))
                {
                    claims.Add(pattern.AsClaim());
                }
            }
        }

        return [.. claims];
    }

    // Merges one kind of permission from a principal's rules. Where none of them gives an allow list, the principal
    // may do anything not denied, except what others have claimed (Provide and ClientNames).
    private static CompiledPermission Merge(List<CompiledRules> rules, Func<CompiledRules, (SubjectPattern[]? Allow, SubjectPattern[] Deny)> kind,
        LearningBudget learning, SubjectPattern[]? claims = null)
    {
        var restricted = false;
        var allow = new List<SubjectPattern>();
        var deny = new List<SubjectPattern>();
        foreach (var rule in rules)
        {
            var (a, d) = kind(rule);
            if (a is not null)
            {
                restricted = true;
                allow.AddRange(a);
            }

            deny.AddRange(d);
        }

        if (!restricted && claims is not null)
        {
            deny.AddRange(claims);
        }

        return !restricted && deny.Count == 0 ? CompiledPermission.AllowAll : new CompiledPermission(restricted, allow, deny, budget: learning);
    }

    private void ReadCertificates(JsonRpcSecurityOptions options, List<string> problems)
    {
        for (var i = 0; i < options.Certificates.Count; i++)
        {
            var entry = options.Certificates[i];
            var path = $"Security:Certificates:{i}";
            if (string.IsNullOrWhiteSpace(entry.Identity))
            {
                problems.Add($"{path}:Identity must name an identity.");
            }

            if (entry.Thumbprint is { } thumbprint && entry.Subject is null)
            {
                var hex = thumbprint.Replace(":", "", StringComparison.Ordinal).Replace(" ", "", StringComparison.Ordinal);
                if (hex.Length is not (40 or 64) || !hex.All(Uri.IsHexDigit))
                {
                    problems.Add($"{path}:Thumbprint must be 40 (SHA-1) or 64 (SHA-256) hex digits.");
                }

                _thumbprints[hex] = (entry.Identity, [.. entry.Roles]);
            }
            else if (entry.Subject is { Length: > 0 } subject && entry.Thumbprint is null)
            {
                _subjects[subject] = (entry.Identity, [.. entry.Roles]);
            }
            else
            {
                problems.Add($"{path} needs exactly one of Thumbprint and Subject.");
            }
        }

        if (options.ClientCertificateCaFile is { } caFile)
        {
            try
            {
                _clientCas.ImportFromPemFile(caFile);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Security.Cryptography.CryptographicException)
            {
                problems.Add($"Security:ClientCertificateCaFile '{caFile}' cannot be read: {ex.Message}");
            }
        }
        else if (_subjects.Count > 0)
        {
            problems.Add("Security:Certificates mapped by Subject need Security:ClientCertificateCaFile (the CA they must chain to).");
        }
    }

    private bool ChainsToClientCa(X509Certificate2 certificate)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.AddRange(_clientCas);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.ApplicationPolicy.Add(new Oid("1.3.6.1.5.5.7.3.2")); // client authentication
        return chain.Build(certificate);
    }
}
