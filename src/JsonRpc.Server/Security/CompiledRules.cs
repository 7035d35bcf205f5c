namespace JsonRpc.Server.Security;

/// <summary>One <see cref="JsonRpcIdentityRules"/> entry with its patterns compiled; merged into principals.</summary>
internal sealed class CompiledRules
{
    public required string[] Roles { get; init; }

    public (SubjectPattern[]? Allow, SubjectPattern[] Deny) Provide { get; init; }

    public (SubjectPattern[]? Allow, SubjectPattern[] Deny) Call { get; init; }

    public (SubjectPattern[]? Allow, SubjectPattern[] Deny) Publish { get; init; }

    public (SubjectPattern[]? Allow, SubjectPattern[] Deny) Subscribe { get; init; }

    public (SubjectPattern[]? Allow, SubjectPattern[] Deny) ClientNames { get; init; }

    public bool Monitor { get; init; }

    public JsonRpcQuota? Quota { get; init; }

    public static CompiledRules Create(JsonRpcIdentityRules rules, string path, List<string> problems)
    {
        if (rules.Quota is { } quota)
        {
            if (quota.CallsPerSecond is { } rate && !(rate > 0 && double.IsFinite(rate)))
            {
                problems.Add($"{path}:Quota:CallsPerSecond must be a positive number.");
            }

            if (quota.Burst is < 1)
            {
                problems.Add($"{path}:Quota:Burst must be at least 1.");
            }

            if (quota.MaxCallsInFlight is < 1)
            {
                problems.Add($"{path}:Quota:MaxCallsInFlight must be at least 1.");
            }

            if (quota.MaxConnections is < 1)
            {
                problems.Add($"{path}:Quota:MaxConnections must be at least 1.");
            }
        }

        return new CompiledRules
        {
            Roles = [.. rules.Roles],
            Provide = Compile(rules.Provide, path + ":Provide", problems),
            Call = Compile(rules.Call, path + ":Call", problems),
            Publish = Compile(rules.Publish, path + ":Publish", problems),
            Subscribe = Compile(rules.Subscribe, path + ":Subscribe", problems),
            ClientNames = Compile(rules.ClientNames, path + ":ClientNames", problems),
            Monitor = rules.Monitor,
            Quota = rules.Quota,
        };
    }

    private static (SubjectPattern[]? Allow, SubjectPattern[] Deny) Compile(JsonRpcPermission? permission, string path, List<string> problems)
    {
        if (permission is null)
        {
            return (null, []);
        }

        return (permission.Allow is { } allow ? Patterns(allow, path + ":Allow", problems) : null, Patterns(permission.Deny, path + ":Deny", problems));
    }

    private static SubjectPattern[] Patterns(IList<string> texts, string path, List<string> problems)
    {
        var patterns = new List<SubjectPattern>(texts.Count);
        for (var i = 0; i < texts.Count; i++)
        {
            if (SubjectPattern.TryCreate(texts[i], out var problem) is { } pattern)
            {
                patterns.Add(pattern);
            }
            else
            {
                problems.Add($"{path}:{i}: {problem}.");
            }
        }

        return [.. patterns];
    }
}
