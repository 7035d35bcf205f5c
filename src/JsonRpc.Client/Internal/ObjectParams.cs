using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>Params of any .NET value, serialized with the client's <see cref="JsonSerializerOptions"/> by runtime type.</summary>
internal readonly struct ObjectParams(object? value, JsonSerializerOptions options) : IParamsSource
{
    public bool IsAbsent => value is null or RawJson { IsEmpty: true };

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "Only the public overloads marked RequiresUnreferencedCode create ObjectParams.")]
    [UnconditionalSuppressMessage("AOT", "IL3050", Justification = "Only the public overloads marked RequiresDynamicCode create ObjectParams.")]
    public void WriteValue(Utf8JsonWriter writer)
    {
        if (value is RawJson raw)
        {
            writer.WriteRawValue(raw.Span, skipInputValidation: true);
            return;
        }

        JsonSerializer.Serialize(writer, value, options.GetTypeInfo(value!.GetType()));
    }
}
