using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>Three typed arguments sent by position: <c>[arg1, arg2, arg3]</c>.</summary>
internal readonly struct PositionalParams<T1, T2, T3>(
    T1 arg1, T2 arg2, T3 arg3, JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<T3> type3) : IParamsSource
{
    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartArray();
        JsonSerializer.Serialize(writer, arg1, type1);
        JsonSerializer.Serialize(writer, arg2, type2);
        JsonSerializer.Serialize(writer, arg3, type3);
        writer.WriteEndArray();
    }
}
