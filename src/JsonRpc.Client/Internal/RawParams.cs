using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>Params that are already JSON, written as they are.</summary>
internal readonly struct RawParams(RawJson value) : IParamsSource
{
    public bool IsAbsent => value.IsEmpty;

    public void WriteValue(Utf8JsonWriter writer) => writer.WriteRawValue(value.Span, skipInputValidation: true);
}
