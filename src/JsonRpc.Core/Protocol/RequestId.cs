using System.Buffers.Text;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace JsonRpc.Protocol;

/// <summary>
/// The <c>id</c> of a request: a number, a string, <c>null</c>, or absent. Never boxes, and echoes back exactly
/// what the peer sent: the string <c>"1"</c> stays a string, and a number that is not a plain 64-bit integer
/// (<c>1.5</c>, <c>1e3</c>, <c>-0</c>, <c>123456789012345678901234567890</c>) keeps its original text.
/// </summary>
/// <remarks>
/// <c>default(RequestId)</c> is <see cref="None"/>: "there was no id member", which is distinct from
/// <see cref="Null"/> (<c>"id": null</c>).
/// </remarks>
[System.Text.Json.Serialization.JsonConverter(typeof(Serialization.RequestIdConverter))]
public readonly struct RequestId : IEquatable<RequestId>
{
    // For strings: the value. For numbers: the original text when it is not a canonical Int64, else null.
    private readonly string? _text;
    private readonly long _number;
    private readonly RequestIdKind _kind;

    /// <summary>Creates a numeric id.</summary>
    public RequestId(long number)
    {
        _number = number;
        _kind = RequestIdKind.Number;
    }

    /// <summary>Creates a string id.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null; use <see cref="Null"/> for a null id.</exception>
    /// <exception cref="ArgumentException">
    /// <paramref name="value"/> holds a lone surrogate: it cannot be written as JSON, so the peer could never echo it back.
    /// </exception>
    public RequestId(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (value.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF') >= 0 && HasLoneSurrogate(value))
        {
            throw new ArgumentException("A string id must be valid UTF-16 (it holds a lone surrogate).", nameof(value));
        }

        _text = value;
        _kind = RequestIdKind.String;
    }

    private RequestId(string numberText, bool _)
    {
        _text = numberText;
        _kind = RequestIdKind.Number;
    }

    private RequestId(RequestIdKind kind) => _kind = kind;

    /// <summary>No id member (a notification). Same as <c>default</c>.</summary>
    public static RequestId None => default;

    /// <summary><c>"id": null</c>.</summary>
    public static RequestId Null { get; } = new(RequestIdKind.Null);

    /// <summary>What this id holds.</summary>
    public RequestIdKind Kind => _kind;

    /// <summary>True for <see cref="None"/>.</summary>
    public bool IsNone => _kind == RequestIdKind.None;

    /// <summary>True for <see cref="Null"/>.</summary>
    public bool IsNull => _kind == RequestIdKind.Null;

    /// <summary>True for a numeric id.</summary>
    public bool IsNumber => _kind == RequestIdKind.Number;

    /// <summary>True for a string id.</summary>
    public bool IsString => _kind == RequestIdKind.String;

    /// <summary>The string value of a string id; otherwise <see langword="null"/>.</summary>
    public string? String => _kind == RequestIdKind.String ? _text : null;

    /// <summary>
    /// The number's text exactly as received when it is not a plain 64-bit integer; otherwise <see langword="null"/>.
    /// </summary>
    public string? NumberText => _kind == RequestIdKind.Number ? _text : null;

    /// <summary>
    /// Creates a numeric id from the text of a JSON number (<c>42</c>, <c>1.5</c>, <c>1e3</c>), keeping that text unless
    /// it is a plain 64-bit integer.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="jsonNumber"/> is not exactly one JSON number, without whitespace.</exception>
    public static RequestId FromNumberText(string jsonNumber)
    {
        ArgumentNullException.ThrowIfNull(jsonNumber);
        var utf8 = System.Text.Encoding.UTF8.GetBytes(jsonNumber);
        if (!IsJsonNumber(utf8))
        {
            throw new ArgumentException($"'{jsonNumber}' is not a JSON number.", nameof(jsonNumber));
        }

        return FromValidatedNumber(utf8);
    }

    /// <summary>Builds a numeric id from the UTF-8 text of a JSON number the reader already validated.</summary>
    internal static RequestId FromValidatedNumber(ReadOnlySpan<byte> utf8)
        => TryParseCanonicalInt64(utf8, out var value)
            ? new RequestId(value)
            : new RequestId(System.Text.Encoding.UTF8.GetString(utf8), false);

    /// <summary>
    /// Parses a JSON number token as an Int64 only when writing that Int64 back gives the same text, so that
    /// <c>1.0</c>, <c>1e2</c> and <c>-0</c> keep their spelling.
    /// </summary>
    internal static bool TryParseCanonicalInt64(ReadOnlySpan<byte> utf8, out long value)
    {
        if (utf8.Length is > 0 and <= 20
            && Utf8Parser.TryParse(utf8, out value, out var consumed)
            && consumed == utf8.Length
            && !(value == 0 && utf8[0] == (byte)'-'))
        {
            return true;
        }

        value = 0;
        return false;
    }

    private static bool HasLoneSurrogate(ReadOnlySpan<char> text)
    {
        for (var i = 0; i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(text[i]))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsJsonNumber(ReadOnlySpan<byte> utf8)
    {
        // Exactly one number token and nothing else, not even whitespace: the text is echoed back as it is.
        var reader = new Utf8JsonReader(utf8);
        try
        {
            return reader.Read()
                && reader.TokenType == JsonTokenType.Number
                && reader.TokenStartIndex == 0
                && reader.ValueSpan.Length == utf8.Length;
        }
        catch (JsonException)
        {
            return false;
        }
    }

    /// <summary>
    /// Reads an id from its JSON text: a number (<c>42</c>), a string (<c>"abc"</c>, escapes allowed) or <c>null</c>,
    /// exactly one token without surrounding whitespace. False for anything else. Never throws.
    /// </summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8Json, out RequestId id)
    {
        id = None;
        if (utf8Json.IsEmpty)
        {
            return false;
        }

        try
        {
            var reader = new Utf8JsonReader(utf8Json);
            if (!reader.Read() || reader.TokenStartIndex != 0 || reader.BytesConsumed != utf8Json.Length)
            {
                return false;
            }

            switch (reader.TokenType)
            {
                case JsonTokenType.Number:
                    id = FromValidatedNumber(utf8Json);
                    return true;
                case JsonTokenType.String:
                    var value = reader.GetString()!;
                    if (value.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF') >= 0 && HasLoneSurrogate(value))
                    {
                        return false;
                    }

                    id = new RequestId(value);
                    return true;
                case JsonTokenType.Null:
                    id = Null;
                    return true;
                default:
                    return false;
            }
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>Gets the value of a numeric id that is a plain 64-bit integer.</summary>
    public bool TryGetInt64(out long value)
    {
        if (_kind == RequestIdKind.Number && _text is null)
        {
            value = _number;
            return true;
        }

        value = 0;
        return false;
    }

    /// <summary>
    /// Formats a number or null id (<c>null</c> for <see cref="None"/> too) as <see cref="WriteTo"/> writes it; false for
    /// a string id, whose escaping is the writer's, or when <paramref name="destination"/> is too short.
    /// </summary>
    internal bool TryFormatPlain(Span<byte> destination, out int written)
    {
        switch (_kind)
        {
            case RequestIdKind.Number when _text is null:
                return System.Buffers.Text.Utf8Formatter.TryFormat(_number, destination, out written);
            case RequestIdKind.Number:
                // A validated JSON number: ASCII only, so its UTF-16 and UTF-8 forms have the same length.
                return System.Text.Encoding.ASCII.TryGetBytes(_text, destination, out written);
            case RequestIdKind.String:
                written = 0;
                return false;
            default:
                written = 4;
                return "null"u8.TryCopyTo(destination);
        }
    }

    /// <summary>Writes the id as a JSON value (<c>null</c> for <see cref="None"/> and <see cref="Null"/>).</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        switch (_kind)
        {
            case RequestIdKind.Number when _text is null:
                writer.WriteNumberValue(_number);
                break;
            case RequestIdKind.Number:
                writer.WriteRawValue(_text!, skipInputValidation: true);
                break;
            case RequestIdKind.String:
                writer.WriteStringValue(_text);
                break;
            default:
                writer.WriteNullValue();
                break;
        }
    }

    /// <summary>
    /// True when both ids are of the same kind with the same value as sent: <c>1</c> and <c>"1"</c> differ, and so do
    /// <c>1</c> and <c>1.0</c> (numbers compare by their JSON text, as the peer echoes it).
    /// </summary>
    public bool Equals(RequestId other)
        => _kind == other._kind && _number == other._number && string.Equals(_text, other._text, StringComparison.Ordinal);

    /// <summary>True when <paramref name="obj"/> is a <see cref="RequestId"/> equal to this one (see <see cref="Equals(RequestId)"/>).</summary>
    public override bool Equals([NotNullWhen(true)] object? obj) => obj is RequestId other && Equals(other);

    /// <summary>A hash consistent with <see cref="Equals(RequestId)"/>.</summary>
    public override int GetHashCode() => HashCode.Combine(_kind, _number, _text is null ? 0 : StringComparer.Ordinal.GetHashCode(_text));

    /// <summary>The id as JSON text: <c>42</c>, <c>"abc"</c>, <c>null</c>, or the empty string for <see cref="None"/>.</summary>
    public override string ToString() => _kind switch
    {
        RequestIdKind.Number => _text ?? _number.ToString(CultureInfo.InvariantCulture),
        RequestIdKind.String => $"\"{JsonEncodedText.Encode(_text!, JavaScriptEncoder.UnsafeRelaxedJsonEscaping)}\"",
        RequestIdKind.Null => "null",
        _ => string.Empty,
    };

    /// <summary>Compares two ids.</summary>
    public static bool operator ==(RequestId left, RequestId right) => left.Equals(right);

    /// <summary>Compares two ids.</summary>
    public static bool operator !=(RequestId left, RequestId right) => !left.Equals(right);

    /// <summary>A numeric id.</summary>
    public static implicit operator RequestId(long number) => new(number);

    /// <summary>A string id.</summary>
    public static implicit operator RequestId(string value) => new(value);
}
