using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace JsonRpc.Server;

/// <summary>
/// Reads <see cref="JsonRpcSecurityOptions"/> from configuration without reflection (trimming and AOT safe). Every key
/// is checked: a misspelt one (<c>Alow</c>) is an error naming it, never a rule silently dropped. A permission is an
/// object with <c>Allow</c> and <c>Deny</c> lists, or a plain list, which is its allow list.
/// </summary>
/// <example>
/// <code>
/// "Security": {
///   "Tokens": [ { "Identity": "billing", "Sha256": "9f86d0…" } ],
///   "Jwt": { "Issuers": [ "https://login.example" ], "Audiences": [ "jsonrpc" ], "KeyFiles": [ "issuer.pem" ] },
///   "Identities": {
///     "billing": { "Provide": [ "billing.>" ], "ClientNames": [ "billing.*" ], "Quota": { "CallsPerSecond": 500 } }
///   },
///   "Roles": { "web": { "Call": { "Allow": [ "billing.charge" ], "Deny": [ "billing.refund" ] } } },
///   "Default": { "Subscribe": { "Deny": [ "audit.>" ] } }
/// }
/// </code>
/// </example>
public static class JsonRpcSecurityConfiguration
{
    private static readonly string[] SecurityKeys =
        ["Tokens", "Jwt", "Certificates", "ClientCertificateCaFile", "Identities", "Roles", "Default", "Anonymous", "AuditLogsPerSecond"];

    private static readonly string[] RuleKeys = ["Roles", "Provide", "Call", "Publish", "Subscribe", "ClientNames", "Monitor", "Quota"];
    private static readonly string[] PermissionKeys = ["Allow", "Deny"];
    private static readonly string[] QuotaKeys = ["CallsPerSecond", "Burst", "MaxCallsInFlight", "MaxConnections"];
    private static readonly string[] TokenKeys = ["Identity", "Token", "Sha256", "Roles"];
    private static readonly string[] CertificateKeys = ["Identity", "Thumbprint", "Subject", "Roles"];
    private static readonly string[] JwtKeys =
        ["Issuers", "Audiences", "KeyFiles", "JwksFile", "HmacKeys", "IdentityClaim", "RolesClaim", "ClockSkew", "clock_skew_ms"];

    /// <summary>Reads the section; null when it is absent or empty.</summary>
    /// <exception cref="InvalidOperationException">A key is unknown or a value cannot be read; the message names it.</exception>
    public static JsonRpcSecurityOptions? Read(IConfiguration section)
    {
        ArgumentNullException.ThrowIfNull(section);
        if (!section.GetChildren().Any())
        {
            return null;
        }

        CheckKeys(section, SecurityKeys);
        var options = new JsonRpcSecurityOptions();
        foreach (var entry in Items(section.GetSection("Tokens")))
        {
            CheckKeys(entry, TokenKeys);
            var token = new JsonRpcTokenIdentity { Identity = entry["Identity"] ?? "", Token = NullIfEmpty(entry["Token"]), Sha256 = NullIfEmpty(entry["Sha256"]) };
            AddAll(token.Roles, entry.GetSection("Roles"));
            options.Tokens.Add(token);
        }

        foreach (var entry in Items(section.GetSection("Certificates")))
        {
            CheckKeys(entry, CertificateKeys);
            var certificate = new JsonRpcCertificateIdentity
            {
                Identity = entry["Identity"] ?? "", Thumbprint = NullIfEmpty(entry["Thumbprint"]), Subject = NullIfEmpty(entry["Subject"]),
            };
            AddAll(certificate.Roles, entry.GetSection("Roles"));
            options.Certificates.Add(certificate);
        }

        options.ClientCertificateCaFile = NullIfEmpty(section["ClientCertificateCaFile"]);
        if (Child(section, "Jwt") is { } jwt)
        {
            options.Jwt = ReadJwt(jwt);
        }

        foreach (var identity in section.GetSection("Identities").GetChildren())
        {
            options.Identities[identity.Key] = ReadRules(identity);
        }

        foreach (var role in section.GetSection("Roles").GetChildren())
        {
            options.Roles[role.Key] = ReadRules(role);
        }

        if (Child(section, "Default") is { } @default)
        {
            options.Default = ReadRules(@default);
        }

        if (Child(section, "Anonymous") is { } anonymous)
        {
            options.Anonymous = ReadRules(anonymous);
        }

        options.AuditLogsPerSecond = ReadInt(section, "AuditLogsPerSecond") ?? options.AuditLogsPerSecond;
        return options;
    }

    private static JsonRpcJwtOptions ReadJwt(IConfigurationSection section)
    {
        CheckKeys(section, JwtKeys);
        var jwt = new JsonRpcJwtOptions
        {
            JwksFile = NullIfEmpty(section["JwksFile"]),
            IdentityClaim = NullIfEmpty(section["IdentityClaim"]) ?? "sub",
            RolesClaim = NullIfEmpty(section["RolesClaim"]) ?? "roles",
        };
        AddAll(jwt.Issuers, section.GetSection("Issuers"));
        AddAll(jwt.Audiences, section.GetSection("Audiences"));
        AddAll(jwt.KeyFiles, section.GetSection("KeyFiles"));
        AddAll(jwt.HmacKeys, section.GetSection("HmacKeys"));
        jwt.ClockSkew = JsonRpcRouterConfiguration.ReadTime(section, "ClockSkew", "clock_skew_ms") ?? jwt.ClockSkew;
        return jwt;
    }

    private static JsonRpcIdentityRules ReadRules(IConfigurationSection section)
    {
        CheckKeys(section, RuleKeys);
        var rules = new JsonRpcIdentityRules
        {
            Provide = ReadPermission(section, "Provide"),
            Call = ReadPermission(section, "Call"),
            Publish = ReadPermission(section, "Publish"),
            Subscribe = ReadPermission(section, "Subscribe"),
            ClientNames = ReadPermission(section, "ClientNames"),
            Monitor = JsonRpcRouterConfiguration.ReadBool(section, "Monitor", "monitor") ?? false,
        };
        AddAll(rules.Roles, section.GetSection("Roles"));
        if (Child(section, "Quota") is { } quota)
        {
            CheckKeys(quota, QuotaKeys);
            rules.Quota = new JsonRpcQuota
            {
                CallsPerSecond = ReadDouble(quota, "CallsPerSecond"),
                Burst = ReadInt(quota, "Burst"),
                MaxCallsInFlight = ReadInt(quota, "MaxCallsInFlight"),
                MaxConnections = ReadInt(quota, "MaxConnections"),
            };
        }

        return rules;
    }

    // An object {Allow, Deny}, or a list (the allow list). An empty list is kept as one: it allows nothing.
    private static JsonRpcPermission ReadPermission(IConfigurationSection parent, string key)
    {
        var permission = new JsonRpcPermission();
        if (Child(parent, key) is not { } section)
        {
            return permission;
        }

        var children = section.GetChildren().ToList();
        if (children.Count == 0 || children.TrueForAll(static c => int.TryParse(c.Key, NumberStyles.None, CultureInfo.InvariantCulture, out _)))
        {
            if (children.Count == 0 && !string.IsNullOrEmpty(section.Value))
            {
                throw Invalid(section, "a list of patterns or an object with Allow and Deny");
            }

            permission.Allow = [.. Strings(section)];
            return permission;
        }

        CheckKeys(section, PermissionKeys);
        if (Child(section, "Allow") is { } allow)
        {
            permission.Allow = [.. Strings(allow)];
        }

        permission.Deny = [.. Strings(section.GetSection("Deny"))];
        return permission;
    }

    // The child section named key when the configuration has it, even as an empty list or object (which has no value
    // and no children, so IConfigurationSection.Exists() says false).
    private static IConfigurationSection? Child(IConfiguration parent, string key)
    {
        foreach (var child in parent.GetChildren())
        {
            if (string.Equals(child.Key, key, StringComparison.OrdinalIgnoreCase))
            {
                return child;
            }
        }

        return null;
    }

    private static IEnumerable<IConfigurationSection> Items(IConfigurationSection section)
        => section.GetChildren().OrderBy(static c => int.TryParse(c.Key, NumberStyles.None, CultureInfo.InvariantCulture, out var i) ? i : int.MaxValue);

    private static IEnumerable<string> Strings(IConfigurationSection section)
    {
        foreach (var item in Items(section))
        {
            if (item.GetChildren().Any() || item.Value is null)
            {
                throw Invalid(item, "a string");
            }

            yield return item.Value;
        }
    }

    private static void AddAll(IList<string> list, IConfigurationSection section)
    {
        foreach (var value in Strings(section))
        {
            list.Add(value);
        }
    }

    private static void CheckKeys(IConfiguration section, string[] known)
    {
        foreach (var child in section.GetChildren())
        {
            if (!Array.Exists(known, k => string.Equals(k, child.Key, StringComparison.OrdinalIgnoreCase)))
            {
                var path = child.Path;
                throw new InvalidOperationException($"Configuration key '{path}' is not a security setting (expected one of {string.Join(", ", known)}).");
            }
        }
    }

    private static int? ReadInt(IConfiguration section, string key)
    {
        var text = NullIfEmpty(section[key]);
        return text is null ? null
            : int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value
            : throw Invalid(section, key, text, "an integer");
    }

    private static double? ReadDouble(IConfiguration section, string key)
    {
        var text = NullIfEmpty(section[key]);
        return text is null ? null
            : double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value
            : throw Invalid(section, key, text, "a number");
    }

    private static string? NullIfEmpty(string? value) => string.IsNullOrEmpty(value) ? null : value;

    private static InvalidOperationException Invalid(IConfigurationSection section, string expected)
        => new($"Configuration value '{section.Path}' must be {expected}.");

    private static InvalidOperationException Invalid(IConfiguration section, string key, string text, string expected)
        => new($"Configuration value '{(section is IConfigurationSection s ? s.Path + ":" : "")}{key}' = '{text}' is not {expected}.");
}
