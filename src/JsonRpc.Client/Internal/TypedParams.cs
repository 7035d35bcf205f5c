using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>Params serialized through source-generated (or resolved) metadata; a null value means no params.</summary>
internal readonly struct TypedParams<T>(T value, JsonTypeInfo<T> typeInfo) : IParamsSource
{
    public bool IsAbsent => value is null;

    public void WriteValue(Utf8JsonWriter writer) => JsonSerializer.Serialize(writer, value, typeInfo);
}
