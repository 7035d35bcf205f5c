using System.Buffers.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

/// <summary>Writes a handler's result as the <c>result</c> value of the answer.</summary>
internal abstract class ResultWriter<T>
{
    public abstract void Write(Utf8JsonWriter writer, T value);

    /// <summary>
    /// The most bytes <see cref="TryFormat"/> writes for this value, or -1 when the value is written only through
    /// <see cref="Write"/>.
    /// </summary>
    public virtual int MaxFormattedLength(T value) => -1;

    /// <summary>Formats the value's JSON straight into bytes, exactly as <see cref="Write"/> would.</summary>
    public virtual bool TryFormat(T value, Span<byte> destination, out int written)
    {
        written = 0;
        return false;
    }
}

/// <summary>Serializes through (source-generated or reflection) metadata.</summary>
internal sealed class TypeInfoResultWriter<T>(JsonTypeInfo<T> typeInfo) : ResultWriter<T>
{
    // Integers and booleans written by the serializer's own converters are formatted here without its per-call setup.
    private readonly bool _direct = (typeof(T) == typeof(int) || typeof(T) == typeof(long) || typeof(T) == typeof(bool))
        && BuiltInPrimitive.IsDirect(typeInfo);

    public override void Write(Utf8JsonWriter writer, T value) => JsonSerializer.Serialize(writer, value, typeInfo);

    public override int MaxFormattedLength(T value) => _direct ? 20 : -1;

    public override bool TryFormat(T value, Span<byte> destination, out int written)
    {
        if (typeof(T) == typeof(int))
        {
            return Utf8Formatter.TryFormat((int)(object)value!, destination, out written);
        }

        if (typeof(T) == typeof(long))
        {
            return Utf8Formatter.TryFormat((long)(object)value!, destination, out written);
        }

        if (typeof(T) == typeof(bool))
        {
            var literal = (bool)(object)value! ? "true"u8 : "false"u8;
            written = literal.Length;
            return literal.TryCopyTo(destination);
        }

        return base.TryFormat(value, destination, out written);
    }
}

/// <summary>Writes raw JSON as it is; absent as null.</summary>
internal sealed class RawResultWriter : ResultWriter<RawJson>
{
    public static readonly RawResultWriter Instance = new();

    public override void Write(Utf8JsonWriter writer, RawJson value) => RawJsonConverter.WriteValue(writer, value);

    public override int MaxFormattedLength(RawJson value) => Math.Max(value.Utf8.Length, 4);

    public override bool TryFormat(RawJson value, Span<byte> destination, out int written)
    {
        var json = value.IsEmpty ? "null"u8 : value.Span;
        written = json.Length;
        return json.TryCopyTo(destination);
    }
}

/// <summary>For methods without a result: always null.</summary>
internal sealed class NullResultWriter<T> : ResultWriter<T>
{
    public static readonly NullResultWriter<T> Instance = new();

    public override void Write(Utf8JsonWriter writer, T value) => writer.WriteNullValue();
}
