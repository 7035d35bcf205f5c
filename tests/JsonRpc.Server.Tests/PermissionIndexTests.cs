using System.Text;
using JsonRpc.Server.Security;

namespace JsonRpc.Server.Tests;

/// <summary>
/// <see cref="CompiledPermission"/> indexes wildcard patterns by their first token; it must decide every name exactly
/// as checking each rule in turn does, and report the same refusing rule.
/// </summary>
public sealed class PermissionIndexTests
{
    private static readonly string[] Tokens = ["a", "b", "team1", "team2", "x"];

    [Fact]
    public void IsAllowed_AgreesWithEveryRuleCheckedInOrder_ForRandomPolicies()
    {
        var names = Names().ToList();
        var random = new Random(20261125);
        for (var policy = 0; policy < 300; policy++)
        {
            var allow = RandomPatterns(random, random.Next(0, 12));
            var deny = RandomPatterns(random, random.Next(0, 6));
            var restricted = random.Next(4) != 0;
            var permission = new CompiledPermission(restricted, allow, deny);
            // Twice: the second time every name the patterns decided is remembered.
            for (var pass = 1; pass <= 2; pass++)
            {
                foreach (var name in names)
                {
                    var (expected, expectedRule) = Reference(restricted, allow, deny, name);
                    var actual = permission.IsAllowed(Encoding.UTF8.GetBytes(name), out var rule);
                    Assert.True(expected == actual && expectedRule == rule,
                        $"'{name}' under allow [{string.Join(", ", allow.Select(p => p.Text))}] deny [{string.Join(", ", deny.Select(p => p.Text))}]"
                        + $" restricted={restricted}, pass {pass}: expected {expected} ({expectedRule}), got {actual} ({rule}).");
                }
            }
        }
    }

    [Fact]
    public void IsAllowed_RemembersABoundedNumberOfNames_AndDecidesTheRestAlike()
    {
        var permission = new CompiledPermission(restricted: true, [Pattern("team.*")], [Pattern("*.admin")]);
        for (var i = 0; i < 10_000; i++)
        {
            Assert.True(permission.IsAllowed(Encoding.UTF8.GetBytes("team.m" + i), out _));
            Assert.False(permission.IsAllowed(Encoding.UTF8.GetBytes("other.m" + i), out var rule));
            Assert.Null(rule);
        }

        Assert.False(permission.IsAllowed("team.admin"u8, out var denied));
        Assert.Equal("*.admin", denied);
        Assert.False(permission.IsAllowed("team.admin"u8, out denied));
        Assert.Equal("*.admin", denied);
        Assert.True(permission.IsAllowed("team.m9999"u8, out _));
    }

    [Fact]
    public void IsAllowed_ReportsTheFirstDenyPatternConfigured_WhereSeveralMatch()
    {
        var deny = new[] { Pattern("team1.>"), Pattern("*.secret"), Pattern("team1.secret.*") };
        var permission = new CompiledPermission(restricted: false, [], deny);
        Assert.False(permission.IsAllowed("team1.secret"u8, out var rule));
        Assert.Equal("team1.>", rule);
        Assert.False(permission.IsAllowed("b.secret"u8, out rule));
        Assert.Equal("*.secret", rule);

        permission = new CompiledPermission(restricted: false, [], [Pattern("*.secret"), Pattern("team1.>")]);
        Assert.False(permission.IsAllowed("team1.secret"u8, out rule));
        Assert.Equal("*.secret", rule);
        Assert.True(permission.IsAllowed("team2.open"u8, out rule));
        Assert.Null(rule);
    }

    // The documented rules, one at a time: a deny wins (a literal one reported before a wildcard one, '>' before all),
    // then an allow list, where there is one, must match.
    private static (bool Allowed, string? Rule) Reference(bool restricted, SubjectPattern[] allow, SubjectPattern[] deny, string name)
    {
        var utf8 = Encoding.UTF8.GetBytes(name);
        if (deny.Any(p => p.Text == ">"))
        {
            return (false, ">");
        }

        if (deny.FirstOrDefault(p => p.IsLiteral && p.Text == name) is { } literal)
        {
            return (false, literal.Text);
        }

        if (deny.FirstOrDefault(p => !p.IsLiteral && p.Matches(utf8)) is { } wild)
        {
            return (false, wild.Text);
        }

        return (!restricted || allow.Any(p => p.Text == ">" || p.Matches(utf8)), null);
    }

    private static SubjectPattern[] RandomPatterns(Random random, int count)
    {
        var patterns = new SubjectPattern[count];
        for (var i = 0; i < count; i++)
        {
            var length = random.Next(1, 4);
            var parts = new List<string>();
            for (var t = 0; t < length; t++)
            {
                parts.Add(random.Next(4) == 0 ? "*" : Tokens[random.Next(Tokens.Length)]);
            }

            if (random.Next(3) == 0)
            {
                parts.Add(">");
            }

            if (random.Next(40) == 0)
            {
                parts = [">"];
            }

            patterns[i] = Pattern(string.Join('.', parts));
        }

        return patterns;
    }

    private static IEnumerable<string> Names()
    {
        IEnumerable<string> level = Tokens;
        for (var depth = 1; depth <= 4; depth++)
        {
            foreach (var name in level)
            {
                yield return name;
            }

            level = level.SelectMany(n => Tokens.Select(t => n + "." + t)).ToList();
        }
    }

    private static SubjectPattern Pattern(string text) => SubjectPattern.TryCreate(text, out var problem) ?? throw new ArgumentException(problem);
}
