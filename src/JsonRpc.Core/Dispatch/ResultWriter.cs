using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

/// <summary>Writes a handler's result as the <c>result</c> value of the answer.</summary>
internal abstract class ResultWriter<T>
{
    public abstract void Write(Utf8JsonWriter writer, T value);
}

/// <summary>Serializes through (source-generated or reflection) metadata.</summary>
internal sealed class TypeInfoResultWriter<T>(JsonTypeInfo<T> typeInfo) : ResultWriter<T>
{
    public override void Write(Utf8JsonWriter writer, T value) => JsonSerializer.Serialize(writer, value, typeInfo);
}

/// <summary>Writes raw JSON as it is; absent as null.</summary>
internal sealed class RawResultWriter : ResultWriter<RawJson>
{
    public static readonly RawResultWriter Instance = new();

    public override void Write(Utf8JsonWriter writer, RawJson value) => RawJsonConverter.WriteValue(writer, value);
}

/// <summary>For methods without a result: always null.</summary>
internal sealed class NullResultWriter<T> : ResultWriter<T>
{
    public static readonly NullResultWriter<T> Instance = new();

    public override void Write(Utf8JsonWriter writer, T value) => writer.WriteNullValue();
}
