namespace JsonRpc.Server.Streams;

/// <summary>
/// A progress token as the router compares it: an integer, or the unescaped text of a string (so that <c>"a"</c> and
/// <c>"\u0061"</c> are one token). <see cref="Named"/> tells a token the call names as one (LSP's
/// <c>workDoneToken</c> and <c>partialResultToken</c>, MCP's <c>_meta.progressToken</c>) from an integer argument
/// that may be one (StreamJsonRpc passes an <c>IProgress&lt;T&gt;</c> as a bare integer); equality ignores it.
/// </summary>
internal readonly struct ProgressToken(long number, string? text, bool named) : IEquatable<ProgressToken>
{
    public long Number { get; } = number;

    public string? Text { get; } = text;

    public bool Named { get; } = named;

    public bool Equals(ProgressToken other) => Number == other.Number && string.Equals(Text, other.Text, StringComparison.Ordinal);

    public override bool Equals(object? obj) => obj is ProgressToken other && Equals(other);

    public override int GetHashCode() => Text is null ? Number.GetHashCode() : StringComparer.Ordinal.GetHashCode(Text);

    public override string ToString() => Text ?? Number.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
