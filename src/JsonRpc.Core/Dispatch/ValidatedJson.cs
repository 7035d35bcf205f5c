namespace JsonRpc.Dispatch;

/// <summary>
/// Tells tokens apart in JSON the message reader has already checked: enough to bind scalar arguments without a
/// second <see cref="System.Text.Json.Utf8JsonReader"/>. Checks nothing a reader checks; every method is
/// bounds-checked and answers false for anything it does not expect.
/// </summary>
internal static class ValidatedJson
{
    public static int SkipWhitespace(ReadOnlySpan<byte> json, int at)
    {
        while (at < json.Length && json[at] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
        {
            at++;
        }

        return at;
    }

    /// <summary>A string without escapes, quotes included; false for anything else.</summary>
    public static bool TryReadPlainString(ReadOnlySpan<byte> json, ref int at, out ReadOnlySpan<byte> token)
    {
        token = default;
        if (at >= json.Length || json[at] != (byte)'"')
        {
            return false;
        }

        var rest = json[(at + 1)..];
        var end = rest.IndexOfAny((byte)'"', (byte)'\\');
        if (end < 0 || rest[end] != (byte)'"')
        {
            return false;
        }

        token = json.Slice(at, end + 2);
        at += end + 2;
        return true;
    }

    /// <summary>A number, <c>true</c>, <c>false</c>, <c>null</c> or a string without escapes; false for anything else.</summary>
    public static bool TryReadScalar(ReadOnlySpan<byte> json, ref int at, out ReadOnlySpan<byte> token)
    {
        token = default;
        if (at >= json.Length)
        {
            return false;
        }

        var length = json[at] switch
        {
            (byte)'"' => -1,
            (byte)'t' => 4,
            (byte)'f' => 5,
            (byte)'n' => 4,
            (byte)'-' or (>= (byte)'0' and <= (byte)'9') => NumberLength(json[at..]),
            _ => 0,
        };

        if (length < 0)
        {
            return TryReadPlainString(json, ref at, out token);
        }

        if (length == 0 || at + length > json.Length)
        {
            return false;
        }

        token = json.Slice(at, length);
        at += length;
        return true;
    }

    private static int NumberLength(ReadOnlySpan<byte> json)
    {
        // Arguments are short: a plain loop beats a vectorized search's setup.
        var length = 0;
        while (length < json.Length && json[length] is (>= (byte)'0' and <= (byte)'9') or (byte)'-' or (byte)'+' or (byte)'.' or (byte)'e' or (byte)'E')
        {
            length++;
        }

        return length;
    }
}
