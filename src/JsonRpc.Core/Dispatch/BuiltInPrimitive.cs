using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Dispatch;

/// <summary>
/// Tells whether a type's metadata reads and writes it exactly as the serializer's own primitive converter does with
/// strict number handling, so that the dispatcher may read or write it straight from or to the JSON without the
/// serializer's per-call setup and get the same result.
/// </summary>
internal static class BuiltInPrimitive
{
    public static bool IsDirect<T>(JsonTypeInfo<T> typeInfo)
    {
        if (typeInfo.NumberHandling is { } handling && handling != JsonNumberHandling.Strict)
        {
            return false;
        }

        if (typeInfo.Options.NumberHandling != JsonNumberHandling.Strict)
        {
            return false;
        }

        JsonConverter? builtIn =
            typeof(T) == typeof(int) ? JsonMetadataServices.Int32Converter
            : typeof(T) == typeof(long) ? JsonMetadataServices.Int64Converter
            : typeof(T) == typeof(double) ? JsonMetadataServices.DoubleConverter
            : typeof(T) == typeof(bool) ? JsonMetadataServices.BooleanConverter
            : typeof(T) == typeof(string) ? JsonMetadataServices.StringConverter
            : null;

        // Compared by type: the source generator and the reflection resolver may hold different instances of the
        // same built-in converter, and a custom converter for the type is never the built-in one.
        return builtIn is not null && typeInfo.Converter.GetType() == builtIn.GetType();
    }
}
