using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Security;

/// <summary>
/// One kind of permission of one principal, merged from every rule that applies to it: literal names in hash maps,
/// wildcard patterns in a list. Checking a UTF-8 name allocates nothing.
/// </summary>
internal sealed class CompiledPermission
{
    public static readonly CompiledPermission AllowAll = new(restricted: false, [], []);

    public static readonly CompiledPermission DenyAll = new(restricted: true, [], []);

    private readonly bool _restricted;
    private readonly bool _allowEverything;
    private readonly Utf8Map<string> _allowLiterals = new();
    private readonly SubjectPattern[] _allowPatterns;
    private readonly Utf8Map<string> _denyLiterals = new();
    private readonly SubjectPattern[] _denyPatterns;

    public CompiledPermission(bool restricted, IEnumerable<SubjectPattern> allow, IEnumerable<SubjectPattern> deny)
    {
        _restricted = restricted;
        _allowPatterns = Split(allow, _allowLiterals, ref _allowEverything);
        var ignored = false;
        _denyPatterns = Split(deny, _denyLiterals, ref ignored);
        DenyEverything = ignored;
        IsUnrestricted = !restricted && _denyPatterns.Length == 0 && _denyLiterals.Count == 0 && !DenyEverything;
    }

    /// <summary>Whether a deny of <c>&gt;</c> refuses every name.</summary>
    public bool DenyEverything { get; }

    /// <summary>Whether anything may be refused at all (a principal with no rule of this kind skips the check).</summary>
    public bool IsUnrestricted { get; }

    /// <summary>
    /// Whether <paramref name="name"/> is allowed. When it is not, <paramref name="rule"/> is the deny pattern that
    /// refused it, or null when no allow pattern matched.
    /// </summary>
    public bool IsAllowed(ReadOnlySpan<byte> name, out string? rule)
    {
        rule = null;
        if (IsUnrestricted)
        {
            return true;
        }

        if (DenyEverything)
        {
            rule = ">";
            return false;
        }

        if (_denyLiterals.Count > 0 && _denyLiterals.TryGetValue(name, out rule))
        {
            return false;
        }

        foreach (var pattern in _denyPatterns)
        {
            if (pattern.Matches(name))
            {
                rule = pattern.Text;
                return false;
            }
        }

        if (!_restricted || _allowEverything || (_allowLiterals.Count > 0 && _allowLiterals.TryGetValue(name, out _)))
        {
            return true;
        }

        foreach (var pattern in _allowPatterns)
        {
            if (pattern.Matches(name))
            {
                return true;
            }
        }

        return false;
    }

    /// <inheritdoc cref="IsAllowed(ReadOnlySpan{byte}, out string?)"/>
    public bool IsAllowed(string name, out string? rule) => IsAllowed(System.Text.Encoding.UTF8.GetBytes(name), out rule);

    private static SubjectPattern[] Split(IEnumerable<SubjectPattern> patterns, Utf8Map<string> literals, ref bool everything)
    {
        var wild = new List<SubjectPattern>();
        foreach (var pattern in patterns)
        {
            if (pattern.Text == ">")
            {
                everything = true;
            }
            else if (pattern.IsLiteral)
            {
                literals.GetOrAdd(System.Text.Encoding.UTF8.GetBytes(pattern.Text), pattern.Text, static (_, text) => text);
            }
            else
            {
                wild.Add(pattern);
            }
        }

        return [.. wild];
    }
}
