using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Security;

/// <summary>
/// One kind of permission of one principal, merged from every rule that applies to it: literal names in hash maps,
/// wildcard patterns indexed by their first token (so that a name is matched only against the patterns that begin with
/// its own first token, and those that begin with <c>*</c>, however many rules there are). Checking a UTF-8 name
/// allocates nothing.
/// </summary>
internal sealed class CompiledPermission
{
    public static readonly CompiledPermission AllowAll = new(restricted: false, [], []);

    public static readonly CompiledPermission DenyAll = new(restricted: true, [], []);

    private readonly bool _restricted;
    private readonly bool _allowEverything;
    private readonly Utf8Map<string> _allowLiterals = new();
    private readonly PatternIndex _allowPatterns;
    private readonly Utf8Map<string> _denyLiterals = new();
    private readonly PatternIndex _denyPatterns;

    public CompiledPermission(bool restricted, IEnumerable<SubjectPattern> allow, IEnumerable<SubjectPattern> deny)
    {
        _restricted = restricted;
        _allowPatterns = new PatternIndex(Split(allow, _allowLiterals, ref _allowEverything));
        var ignored = false;
        _denyPatterns = new PatternIndex(Split(deny, _denyLiterals, ref ignored));
        DenyEverything = ignored;
        IsUnrestricted = !restricted && _denyPatterns.IsEmpty && _denyLiterals.Count == 0 && !DenyEverything;
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

        if (_denyPatterns.FirstMatch(name) is { } denied)
        {
            rule = denied.Text;
            return false;
        }

        if (!_restricted || _allowEverything || (_allowLiterals.Count > 0 && _allowLiterals.TryGetValue(name, out _)))
        {
            return true;
        }

        return _allowPatterns.FirstMatch(name) is not null;
    }

    /// <inheritdoc cref="IsAllowed(ReadOnlySpan{byte}, out string?)"/>
    public bool IsAllowed(string name, out string? rule) => IsAllowed(System.Text.Encoding.UTF8.GetBytes(name), out rule);

    private static List<SubjectPattern> Split(IEnumerable<SubjectPattern> patterns, Utf8Map<string> literals, ref bool everything)
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

        return wild;
    }

    /// <summary>
    /// Wildcard patterns in their configured order, grouped by their literal first token, and those that begin with
    /// <c>*</c>: only a name's own group and the <c>*</c> group can match it.
    /// </summary>
    private sealed class PatternIndex
    {
        private readonly Utf8Map<Ordered[]> _byFirstToken = new();
        private readonly Ordered[] _starFirst;

        public PatternIndex(List<SubjectPattern> patterns)
        {
            IsEmpty = patterns.Count == 0;
            var groups = new Dictionary<string, List<Ordered>>(StringComparer.Ordinal);
            var star = new List<Ordered>();
            for (var i = 0; i < patterns.Count; i++)
            {
                if (patterns[i].LiteralFirstToken is { } first)
                {
                    var key = Convert.ToHexString(first);
                    if (!groups.TryGetValue(key, out var group))
                    {
                        groups[key] = group = [];
                    }

                    group.Add(new Ordered(i, patterns[i]));
                }
                else
                {
                    star.Add(new Ordered(i, patterns[i]));
                }
            }

            foreach (var group in groups.Values)
            {
                _byFirstToken.GetOrAdd(group[0].Pattern.LiteralFirstToken!, group, static (_, g) => [.. g]);
            }

            _starFirst = [.. star];
        }

        public bool IsEmpty { get; }

        /// <summary>The first pattern, in configured order, that matches <paramref name="name"/>; null when none does.</summary>
        public SubjectPattern? FirstMatch(ReadOnlySpan<byte> name)
        {
            if (IsEmpty)
            {
                return null;
            }

            var found = -1;
            SubjectPattern? match = null;
            if (_byFirstToken.Count > 0)
            {
                var dot = name.IndexOf((byte)'.');
                if (_byFirstToken.TryGetValue(dot < 0 ? name : name[..dot], out var group))
                {
                    foreach (var candidate in group)
                    {
                        if (candidate.Pattern.Matches(name))
                        {
                            (found, match) = (candidate.Order, candidate.Pattern);
                            break;
                        }
                    }
                }
            }

            foreach (var candidate in _starFirst)
            {
                if (found >= 0 && candidate.Order > found)
                {
                    break;
                }

                if (candidate.Pattern.Matches(name))
                {
                    return candidate.Pattern;
                }
            }

            return match;
        }

        private readonly record struct Ordered(int Order, SubjectPattern Pattern);
    }
}
