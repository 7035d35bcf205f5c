using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>Two typed arguments sent by position: <c>[arg1, arg2]</c>.</summary>
internal readonly struct PositionalParams<T1, T2>(T1 arg1, T2 arg2, JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2) : IParamsSource
{
    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartArray();
        JsonSerializer.Serialize(writer, arg1, type1);
        JsonSerializer.Serialize(writer, arg2, type2);
        writer.WriteEndArray();
    }
}
