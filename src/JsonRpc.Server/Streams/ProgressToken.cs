namespace JsonRpc.Server.Streams;

/// <summary>
/// A progress token as the router compares it: an integer, or the unescaped text of a string (so that <c>"a"</c> and
/// <c>"\u0061"</c> are one token). <see cref="Named"/> tells a token the call names as one (LSP's
/// <c>workDoneToken</c> and <c>partialResultToken</c>, MCP's <c>_meta.progressToken</c>, or one the router put in place
/// of the caller's) from an integer argument that may be one (StreamJsonRpc passes an <c>IProgress&lt;T&gt;</c> as a
/// bare integer); equality ignores everything but the token itself.
/// </summary>
internal readonly struct ProgressToken(long number, string? text, bool named) : IEquatable<ProgressToken>
{
    /// <summary>The <see cref="Slot"/> of a token that is not an integer argument.</summary>
    public const long NoSlot = -1;

    public long Number { get; } = number;

    public string? Text { get; } = text;

    public bool Named { get; } = named;

    /// <summary>
    /// For an integer argument: which argument it is, the same in every call of the method (its position, or
    /// <see cref="NameSlot"/> of its name); <see cref="NoSlot"/> otherwise.
    /// </summary>
    public long Slot { get; init; } = NoSlot;

    /// <summary>Where an integer argument lies in the call's params (meaningful only while the call is forwarded).</summary>
    public Range Value { get; init; }

    /// <summary>Whether the router sent the provider a token of its own in place of the caller's <see cref="Original"/>.</summary>
    public bool IsMapped { get; init; }

    /// <summary>The caller's own token, when <see cref="IsMapped"/>.</summary>
    public long Original { get; init; }

    /// <summary>
    /// The slot of an argument given by name: a 64-bit FNV-1a hash of its name as sent, always negative and never
    /// <see cref="NoSlot"/>, so that it cannot equal a position.
    /// </summary>
    public static long NameSlot(ReadOnlySpan<byte> name)
    {
        var hash = 14695981039346656037UL;
        foreach (var b in name)
        {
            hash = (hash ^ b) * 1099511628211UL;
        }

        var slot = (long)(hash | 0x8000_0000_0000_0000UL);
        return slot == NoSlot ? NoSlot - 1 : slot;
    }

    public bool Equals(ProgressToken other) => Number == other.Number && string.Equals(Text, other.Text, StringComparison.Ordinal);

    public override bool Equals(object? obj) => obj is ProgressToken other && Equals(other);

    public override int GetHashCode() => Text is null ? Number.GetHashCode() : StringComparer.Ordinal.GetHashCode(Text);

    public override string ToString() => Text ?? Number.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
