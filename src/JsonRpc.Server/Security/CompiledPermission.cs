using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Security;

/// <summary>
/// One kind of permission of one principal, merged from every rule that applies to it. Every literal name of either
/// list is decided once, when compiled, and found with one hash lookup; other names are matched against the wildcard
/// patterns, indexed by their first token (so that a name meets only the patterns that begin with its own first token
/// or with <c>*</c>, however many rules there are) and skipped when their number of tokens cannot fit; what the patterns
/// decided is remembered for a bounded number of names (shared by all the permissions of a policy), so that a name
/// checked again is one lookup too. Checking a name allocates nothing, except once for a name the patterns decide the
/// first time it is seen (a copy of it, within that bound). Immutable in what it decides: a reloaded policy compiles new ones.
/// </summary>
internal sealed class CompiledPermission
{
    public static readonly CompiledPermission AllowAll = new(restricted: false, [], []);

    public static readonly CompiledPermission DenyAll = new(restricted: true, [], []);

    private readonly bool _restricted;
    private readonly bool _allowEverything;
    private readonly string? _denyEverythingRule;
    // The names a permission made alone may remember (a policy shares one budget among all of its permissions), and
    // the longest name remembered.
    private const int MaxLearned = 4096;
    private const int MaxLearnedLength = 256;

    private readonly Utf8Map<Verdict> _literals = new();
    private readonly bool _learns;
    private readonly LearningBudget _budget;
    private readonly PatternIndex _allowPatterns;
    private readonly PatternIndex _denyPatterns;

    /// <param name="restricted">Whether some rule gave an allow list (then a name must match it).</param>
    /// <param name="allow">The allow patterns of every rule, in order.</param>
    /// <param name="deny">The deny patterns of every rule, in order.</param>
    /// <param name="learn">Whether to remember what the patterns decided (off only to measure the patterns themselves).</param>
    /// <param name="budget">How many names it may remember, shared with the other permissions of its policy; null for 4,096 of its own.</param>
    public CompiledPermission(bool restricted, IEnumerable<SubjectPattern> allow, IEnumerable<SubjectPattern> deny, bool learn = true,
        LearningBudget? budget = null)
    {
        _restricted = restricted;
        _budget = budget ?? new LearningBudget(MaxLearned);
        var allowLiterals = new List<SubjectPattern>();
        SubjectPattern? allowEverything = null;
        _allowPatterns = new PatternIndex(Split(allow, allowLiterals, ref allowEverything));
        _allowEverything = allowEverything is not null;
        SubjectPattern? denyEverything = null;
        var denyLiterals = new List<SubjectPattern>();
        _denyPatterns = new PatternIndex(Split(deny, denyLiterals, ref denyEverything));
        DenyEverything = denyEverything is not null;
        _denyEverythingRule = denyEverything?.Rule;
        IsUnrestricted = !restricted && _denyPatterns.IsEmpty && denyLiterals.Count == 0 && !DenyEverything;
        _learns = learn && !(_denyPatterns.IsEmpty && (_allowPatterns.IsEmpty || !restricted || _allowEverything));

        // A literal denied is refused by itself (before any pattern); a literal allowed, unless a deny pattern matches it.
        foreach (var denied in denyLiterals)
        {
            _literals.GetOrAdd(System.Text.Encoding.UTF8.GetBytes(denied.Text), denied.Rule, static (_, rule) => new Verdict(false, rule));
        }

        foreach (var allowed in allowLiterals)
        {
            _literals.GetOrAdd(System.Text.Encoding.UTF8.GetBytes(allowed.Text), _denyPatterns,
                static (utf8, denyPatterns) => denyPatterns.FirstMatch(utf8) is { } denied ? new Verdict(false, denied.Rule) : Verdict.Allowed);
        }
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
            rule = _denyEverythingRule;
            return false;
        }

        if (_literals.Count > 0 && _literals.TryGetValue(name, out var verdict))
        {
            rule = verdict.Rule;
            return verdict.IsAllowed;
        }

        bool allowed;
        if (_denyPatterns.FirstMatch(name) is { } denied)
        {
            rule = denied.Rule;
            allowed = false;
        }
        else
        {
            allowed = !_restricted || _allowEverything || _allowPatterns.FirstMatch(name) is not null;
        }

        // Remember what the patterns decided, so that the next check of this name is one lookup: once per name, for
        // a bounded number of names (they come from clients), and only where there are patterns to skip.
        if (_learns && name.Length <= MaxLearnedLength && _budget.HasRoom)
        {
            Learn(name, allowed ? Verdict.Allowed : new Verdict(false, rule));
        }

        return allowed;
    }

    /// <inheritdoc cref="IsAllowed(ReadOnlySpan{byte}, out string?)"/>
    public bool IsAllowed(string name, out string? rule) => IsAllowed(System.Text.Encoding.UTF8.GetBytes(name), out rule);

    private void Learn(ReadOnlySpan<byte> name, Verdict verdict)
    {
        if (_budget.TryTake())
        {
            _literals.GetOrAdd(name, verdict, static (_, v) => v);
        }
    }

    private static List<SubjectPattern> Split(IEnumerable<SubjectPattern> patterns, List<SubjectPattern> literals, ref SubjectPattern? everything)
    {
        var wild = new List<SubjectPattern>();
        foreach (var pattern in patterns)
        {
            if (pattern.Text == ">")
            {
                everything ??= pattern;
            }
            else if (pattern.IsLiteral)
            {
                literals.Add(pattern);
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
            var tokens = System.MemoryExtensions.Count(name, (byte)'.') + 1;
            if (_byFirstToken.Count > 0)
            {
                var dot = name.IndexOf((byte)'.');
                if (_byFirstToken.TryGetValue(dot < 0 ? name : name[..dot], out var group))
                {
                    foreach (var candidate in group)
                    {
                        if (candidate.Pattern.Fits(tokens) && candidate.Pattern.Matches(name))
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

                if (candidate.Pattern.Fits(tokens) && candidate.Pattern.Matches(name))
                {
                    return candidate.Pattern;
                }
            }

            return match;
        }

        private readonly record struct Ordered(int Order, SubjectPattern Pattern);
    }

    /// <summary>A literal name decided when compiled: allowed, or refused by <see cref="Rule"/>.</summary>
    private sealed class Verdict(bool allowed, string? rule)
    {
        public static readonly Verdict Allowed = new(true, null);

        public bool IsAllowed { get; } = allowed;

        public string? Rule { get; } = rule;
    }
}

/// <summary>
/// How many more names the permissions of one policy may remember: names come from clients, so what is remembered is
/// bounded for the policy as a whole, however many principals it makes.
/// </summary>
internal sealed class LearningBudget(int names)
{
    private int _left = names;

    public bool HasRoom => Volatile.Read(ref _left) > 0;

    public bool TryTake() => Interlocked.Decrement(ref _left) >= 0;
}
