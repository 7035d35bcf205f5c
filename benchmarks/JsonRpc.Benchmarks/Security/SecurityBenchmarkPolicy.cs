using JsonRpc.Server;
using JsonRpc.Server.Security;

namespace JsonRpc.Benchmarks.Security;

/// <summary>
/// The configuration the security benchmarks measure: an identity <c>caller</c> whose call permission has 100 rules
/// (60 literal method names, 10 <c>groupN.&gt;</c> and 15 <c>teamN.*</c> patterns allowed; 10 literal names and 5
/// patterns denied), and an identity <c>provider</c> that may provide the one method routed.
/// </summary>
internal static class SecurityBenchmarkPolicy
{
    public const string CallerToken = "caller-token-3a9f";
    public const string ProviderToken = "provider-token-81c2";

    /// <summary>The method routed: allowed by <c>team19.*</c>, the last of the 25 allow patterns checked.</summary>
    public const string RoutedMethod = "team19.echo";

    public const int Rules = 100;

    public static JsonRpcSecurityOptions Create()
    {
        var (allow, deny) = CallRules();
        var security = new JsonRpcSecurityOptions
        {
            Tokens =
            {
                new JsonRpcTokenIdentity { Identity = "caller", Token = CallerToken },
                new JsonRpcTokenIdentity { Identity = "provider", Token = ProviderToken },
            },
        };
        security.Identities["caller"] = new JsonRpcIdentityRules { Call = new JsonRpcPermission { Allow = allow, Deny = deny } };
        security.Identities["provider"] = new JsonRpcIdentityRules { Provide = new JsonRpcPermission { Allow = ["team19.*"] } };
        return security;
    }

    /// <summary>The caller's 100 call rules: what it may call, and what it may not.</summary>
    public static (List<string> Allow, List<string> Deny) CallRules()
    {
        var allow = new List<string>();
        for (var i = 0; i < 60; i++)
        {
            allow.Add($"svc{i / 10}.method{i % 10}");
        }

        for (var i = 0; i < 10; i++)
        {
            allow.Add($"group{i}.>");
        }

        for (var i = 5; i < 20; i++)
        {
            allow.Add($"team{i}.*");
        }

        var deny = new List<string>();
        for (var i = 5; i < 15; i++)
        {
            deny.Add($"team{i}.admin");
        }

        deny.AddRange(["*.internal.>", "*.secret", "legacy.>", "team7.*.delete", "*.*.admin"]);
        if (allow.Count + deny.Count != Rules)
        {
            throw new InvalidOperationException($"The policy has {allow.Count + deny.Count} rules, not {Rules}.");
        }

        return (allow, deny);
    }

    /// <summary>The same 100 rules compiled without remembering names: every check of a non-literal name runs the patterns.</summary>
    public static CompiledPermission PatternsOnly()
    {
        var (allow, deny) = CallRules();
        return new CompiledPermission(restricted: true, allow.Select(Pattern), deny.Select(Pattern), learn: false);

        static SubjectPattern Pattern(string text) => SubjectPattern.TryCreate(text, out var problem) ?? throw new InvalidOperationException(problem);
    }

    /// <summary>The caller's call permission, merged by the router's own policy code.</summary>
    public static CompiledPermission CallerCallPermission()
    {
        var policy = SecurityPolicy.Create(Create(), accessToken: null, static name => new IdentityState(name))
            ?? throw new InvalidOperationException("No policy.");
        return policy.Resolve("caller", []).Call;
    }
}
