using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>Deserializes the result through <see cref="JsonTypeInfo{T}"/>.</summary>
internal readonly struct TypedResult<T>(JsonTypeInfo<T> typeInfo) : IResultReader<T?>
{
    public T? Read(PendingCall call) => JsonSerializer.Deserialize(call.Payload, typeInfo);
}
