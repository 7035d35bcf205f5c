using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary><c>{"id": id}</c>: the params of <c>$/cancelRequest</c>.</summary>
internal readonly struct CancelParams(long id) : IParamsSource
{
    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteNumber("id"u8, id);
        writer.WriteEndObject();
    }
}
