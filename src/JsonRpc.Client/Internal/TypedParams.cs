using System.Text.Json;
using JsonRpc.Contracts;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>Params serialized through source-generated (or resolved) metadata; a null value means no params.</summary>
internal readonly struct TypedParams<T>(T value, JsonTypeInfo<T> typeInfo) : IParamsSource
{
    public bool IsAbsent => value is null;

    public void WriteValue(Utf8JsonWriter writer)
    {
        // A contract's generated params type writes itself: no serializer entry per call.
        if (typeInfo.Converter is JsonRpcContractArgsConverter<T> contract)
        {
            contract.Write(writer, value, typeInfo.Options);
        }
        else
        {
            JsonSerializer.Serialize(writer, value, typeInfo);
        }
    }
}
