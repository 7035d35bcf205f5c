using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>
/// A JSON value (params, result or error data) kept as the exact UTF-8 bytes the peer sent, turned into a .NET type
/// only when asked. Writing it writes those bytes back untouched.
/// </summary>
/// <remarks>
/// <c>default(RawJson)</c> is "absent" (<see cref="IsEmpty"/>), which is different from the JSON literal <c>null</c>.
/// The bytes are either a private copy or a slice of a buffer the caller passed to
/// <see cref="JsonRpcMessage.Parse(ReadOnlyMemory{byte}, JsonRpcReaderOptions?)"/> and still owns.
/// </remarks>
[System.Text.Json.Serialization.JsonConverter(typeof(RawJsonConverter))]
public readonly struct RawJson : IEquatable<RawJson>
{
    private static readonly byte[] NullLiteral = "null"u8.ToArray();
    private static readonly byte[] EmptyArrayLiteral = "[]"u8.ToArray();
    private static readonly byte[] EmptyObjectLiteral = "{}"u8.ToArray();

    private readonly ReadOnlyMemory<byte> _utf8;

    private RawJson(ReadOnlyMemory<byte> utf8) => _utf8 = utf8;

    /// <summary>No value at all.</summary>
    public static RawJson Absent => default;

    /// <summary>The JSON literal <c>null</c>.</summary>
    public static RawJson Null => new(NullLiteral);

    /// <summary>An empty JSON array, <c>[]</c>.</summary>
    public static RawJson EmptyArray => new(EmptyArrayLiteral);

    /// <summary>An empty JSON object, <c>{}</c>.</summary>
    public static RawJson EmptyObject => new(EmptyObjectLiteral);

    /// <summary>True when there is no value (the member was absent).</summary>
    public bool IsEmpty => _utf8.IsEmpty;

    /// <summary>The UTF-8 JSON text.</summary>
    public ReadOnlyMemory<byte> Utf8 => _utf8;

    /// <summary>The UTF-8 JSON text.</summary>
    public ReadOnlySpan<byte> Span => _utf8.Span;

    /// <summary>The kind of JSON value, read from its first byte; <see cref="JsonValueKind.Undefined"/> when absent.</summary>
    public JsonValueKind ValueKind
    {
        get
        {
            var span = _utf8.Span;
            var i = 0;
            while (i < span.Length && span[i] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
            {
                i++;
            }

            if (i == span.Length)
            {
                return JsonValueKind.Undefined;
            }

            return span[i] switch
            {
                (byte)'{' => JsonValueKind.Object,
                (byte)'[' => JsonValueKind.Array,
                (byte)'"' => JsonValueKind.String,
                (byte)'t' => JsonValueKind.True,
                (byte)'f' => JsonValueKind.False,
                (byte)'n' => JsonValueKind.Null,
                _ => JsonValueKind.Number,
            };
        }
    }

    /// <summary>
    /// Wraps UTF-8 JSON text after checking that it is exactly one valid JSON value (strict: valid UTF-8, no lone
    /// surrogate escapes, no duplicate member names). Whitespace around the value is left out; the value's bytes are not
    /// copied, so the caller must not change them afterwards.
    /// </summary>
    /// <param name="utf8Json">The UTF-8 JSON text.</param>
    /// <param name="maxDepth">The deepest nesting accepted (1 to 4096).</param>
    /// <exception cref="JsonRpcProtocolException">
    /// The text is not a single JSON value (<see cref="JsonRpcErrorCodes.ParseError"/>) or has a member name twice in
    /// one object (<see cref="JsonRpcErrorCodes.InvalidRequest"/>).
    /// </exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxDepth"/> is out of range.</exception>
    public static RawJson FromUtf8(ReadOnlyMemory<byte> utf8Json, int maxDepth = JsonRpcReaderOptions.DefaultMaxDepth)
    {
        JsonRpcReaderOptions.ThrowIfInvalidMaxDepth(maxDepth);
        if (!JsonRpcMessageReader.TryValidateValue(utf8Json.Span, maxDepth, out var range, out var error))
        {
            throw new JsonRpcProtocolException(error.Code, error.Detail, RequestId.None);
        }

        return new RawJson(utf8Json[range]);
    }

    /// <summary>Wraps JSON text after checking it as <see cref="FromUtf8"/> does.</summary>
    /// <exception cref="JsonRpcProtocolException">
    /// The text is not a single JSON value, or holds a lone surrogate (<see cref="JsonRpcErrorCodes.ParseError"/>),
    /// or has a member name twice in one object (<see cref="JsonRpcErrorCodes.InvalidRequest"/>).
    /// </exception>
    public static RawJson Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        return FromUtf8(Utf8Text.GetBytes(json));
    }

    /// <summary>Wraps bytes the caller guarantees to be one valid JSON value. Nothing is checked.</summary>
    internal static RawJson FromTrustedUtf8(ReadOnlyMemory<byte> utf8Json) => new(utf8Json);

    /// <summary>Serializes a .NET value to JSON through source-generated metadata (trimming and AOT safe).</summary>
    public static RawJson From<T>(T value, JsonTypeInfo<T> typeInfo)
    {
        ArgumentNullException.ThrowIfNull(typeInfo);
        return new RawJson(JsonSerializer.SerializeToUtf8Bytes(value, typeInfo));
    }

    /// <summary>Serializes a .NET value to JSON with reflection-based options.</summary>
    [RequiresUnreferencedCode("Uses reflection-based serialization; use the JsonTypeInfo overload for trimming.")]
    [RequiresDynamicCode("Uses reflection-based serialization; use the JsonTypeInfo overload for AOT.")]
    public static RawJson From<T>(T value, JsonSerializerOptions? options = null)
        => new(JsonSerializer.SerializeToUtf8Bytes(value, options));

    /// <summary>Deserializes the value through source-generated metadata.</summary>
    /// <exception cref="InvalidOperationException">The value is absent.</exception>
    /// <exception cref="JsonException">The JSON does not fit <typeparamref name="T"/>.</exception>
    public T? Deserialize<T>(JsonTypeInfo<T> typeInfo)
    {
        ArgumentNullException.ThrowIfNull(typeInfo);
        ThrowIfEmpty();
        return JsonSerializer.Deserialize(_utf8.Span, typeInfo);
    }

    /// <summary>Deserializes the value with reflection-based options.</summary>
    /// <exception cref="InvalidOperationException">The value is absent.</exception>
    /// <exception cref="JsonException">The JSON does not fit <typeparamref name="T"/>.</exception>
    [RequiresUnreferencedCode("Uses reflection-based serialization; use the JsonTypeInfo overload for trimming.")]
    [RequiresDynamicCode("Uses reflection-based serialization; use the JsonTypeInfo overload for AOT.")]
    public T? Deserialize<T>(JsonSerializerOptions? options = null)
    {
        ThrowIfEmpty();
        return JsonSerializer.Deserialize<T>(_utf8.Span, options);
    }

    /// <summary>Writes the bytes as they are, as the next value of <paramref name="writer"/>.</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ThrowIfEmpty();
        writer.WriteRawValue(_utf8.Span, skipInputValidation: true);
    }

    /// <summary>Copies the bytes into memory of their own, detaching them from the buffer they were read from.</summary>
    public RawJson Detach() => _utf8.IsEmpty ? default : new RawJson(_utf8.ToArray());

    /// <summary>Byte-for-byte equality of the JSON text.</summary>
    public bool Equals(RawJson other) => _utf8.Span.SequenceEqual(other._utf8.Span);

    /// <summary>True when <paramref name="obj"/> is a <see cref="RawJson"/> with byte-for-byte the same JSON text.</summary>
    public override bool Equals([NotNullWhen(true)] object? obj) => obj is RawJson other && Equals(other);

    /// <summary>A hash of the JSON text's bytes, consistent with <see cref="Equals(RawJson)"/>.</summary>
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.AddBytes(_utf8.Span);
        return hash.ToHashCode();
    }

    /// <summary>The JSON text, or the empty string when absent.</summary>
    public override string ToString() => Encoding.UTF8.GetString(_utf8.Span);

    /// <summary>Compares the JSON text byte for byte.</summary>
    public static bool operator ==(RawJson left, RawJson right) => left.Equals(right);

    /// <summary>Compares the JSON text byte for byte.</summary>
    public static bool operator !=(RawJson left, RawJson right) => !left.Equals(right);

    private void ThrowIfEmpty()
    {
        if (_utf8.IsEmpty)
        {
            ThrowHelper.ThrowInvalidOperation_RawJsonEmpty();
        }
    }
}
