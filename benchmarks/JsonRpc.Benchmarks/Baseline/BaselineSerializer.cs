using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>The serializer entry points for the two baseline converters, built once.</summary>
internal static class BaselineSerializer
{
    /// <summary>Reads through <see cref="RawTextBaselineConverter"/>.</summary>
    public static JsonTypeInfo<BaselineMessage> RawText { get; } = Create(new RawTextBaselineConverter());

    /// <summary>Reads through <see cref="ElementBaselineConverter"/>.</summary>
    public static JsonTypeInfo<BaselineMessage> Element { get; } = Create(new ElementBaselineConverter());

    private static JsonTypeInfo<BaselineMessage> Create(BaselineMessageConverter converter)
    {
        var options = new JsonSerializerOptions { TypeInfoResolver = BaselineJsonContext.Default, Converters = { converter } };
        options.MakeReadOnly();
        return (JsonTypeInfo<BaselineMessage>)options.GetTypeInfo(typeof(BaselineMessage));
    }
}
