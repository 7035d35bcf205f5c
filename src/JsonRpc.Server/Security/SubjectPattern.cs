using System.Text;

namespace JsonRpc.Server.Security;

/// <summary>
/// A NATS-like subject pattern over UTF-8 names: tokens separated by <c>.</c>; <c>*</c> matches exactly one token and a
/// final <c>&gt;</c> one or more. Matching allocates nothing.
/// </summary>
internal sealed class SubjectPattern
{
    private readonly byte[][] _tokens;
    private readonly bool _tail;

    private SubjectPattern(string text, byte[][] tokens, bool tail, string? rule = null)
    {
        Text = text;
        _tokens = tokens;
        _tail = tail;
        Rule = rule ?? text;
    }

    public string Text { get; }

    /// <summary>What a refusal by this pattern names as its rule: the pattern, or what a claim says of itself.</summary>
    public string Rule { get; }

    /// <summary>
    /// This pattern as a claim: another identity's <c>Provide</c> (or <c>ClientNames</c>) allow pattern, which refuses
    /// the name to an identity that has no such allow list of its own.
    /// </summary>
    public SubjectPattern AsClaim() => new(Text, _tokens, _tail, ClaimPrefix + Text);

    /// <summary>What the <see cref="Rule"/> of a claim begins with (the claimed pattern follows).</summary>
    public const string ClaimPrefix = "claimed:";

    /// <summary>
    /// The pattern's first token when it is a literal (then only names whose first token is the same can match), or
    /// null when it is <c>*</c> (or the pattern is <c>&gt;</c> alone).
    /// </summary>
    public byte[]? LiteralFirstToken => _tokens.Length > 0 && !IsStar(_tokens[0]) ? _tokens[0] : null;

    /// <summary>
    /// Whether a name of <paramref name="tokens"/> tokens could match: exactly as many as the pattern has, or with a
    /// final <c>&gt;</c> more.
    /// </summary>
    public bool Fits(int tokens) => _tail ? tokens > _tokens.Length : tokens == _tokens.Length;

    /// <summary>Whether the pattern has no wildcard (it then matches exactly its own text).</summary>
    public bool IsLiteral => !_tail && Array.TrueForAll(_tokens, static t => !IsStar(t));

    /// <summary>Compiles <paramref name="text"/>; null with a reason when it is not a valid pattern.</summary>
    public static SubjectPattern? TryCreate(string text, out string? problem)
    {
        problem = null;
        if (string.IsNullOrEmpty(text))
        {
            problem = "a pattern must not be empty";
            return null;
        }

        var parts = text.Split('.');
        var tail = parts[^1] == ">";
        var count = tail ? parts.Length - 1 : parts.Length;
        var tokens = new byte[count][];
        for (var i = 0; i < parts.Length; i++)
        {
            var part = parts[i];
            if (part == ">" && i != parts.Length - 1)
            {
                problem = $"'>' may only be the last token ('{text}')";
                return null;
            }

            if (part.Length > 1 && (part.Contains('*', StringComparison.Ordinal) || part.Contains('>', StringComparison.Ordinal)))
            {
                problem = $"'*' and '>' must be whole tokens between dots, as in 'billing.*' or 'billing.>' (in '{text}')";
                return null;
            }

            if (i < count)
            {
                tokens[i] = Encoding.UTF8.GetBytes(part);
            }
        }

        return new SubjectPattern(text, tokens, tail);
    }

    public bool Matches(ReadOnlySpan<byte> name)
    {
        var rest = name;
        var more = true;
        foreach (var token in _tokens)
        {
            if (!more)
            {
                return false;
            }

            var dot = rest.IndexOf((byte)'.');
            var current = dot < 0 ? rest : rest[..dot];
            if (!IsStar(token) && !current.SequenceEqual(token))
            {
                return false;
            }

            if (dot < 0)
            {
                more = false;
            }
            else
            {
                rest = rest[(dot + 1)..];
            }
        }

        // A trailing '>' needs at least one more token; otherwise the name must have ended with the pattern.
        return _tail ? more : !more;
    }

    private static bool IsStar(byte[] token) => token is [(byte)'*'];
}
