using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>The serializer entry points for the two baseline converters, built once.</summary>
internal static class BaselineSerializer
{
    private static readonly JsonSerializerOptions RawTextOptions = Create(new RawTextBaselineConverter());
    private static readonly JsonSerializerOptions ElementOptions = Create(new ElementBaselineConverter());

    /// <summary>Reads through <see cref="RawTextBaselineConverter"/>.</summary>
    public static JsonTypeInfo<BaselineMessage> RawText { get; } = (JsonTypeInfo<BaselineMessage>)RawTextOptions.GetTypeInfo(typeof(BaselineMessage));

    /// <summary>Reads a batch through <see cref="RawTextBaselineConverter"/>.</summary>
    public static JsonTypeInfo<BaselineMessage[]> RawTextArray { get; } = (JsonTypeInfo<BaselineMessage[]>)RawTextOptions.GetTypeInfo(typeof(BaselineMessage[]));

    /// <summary>Reads through <see cref="ElementBaselineConverter"/>.</summary>
    public static JsonTypeInfo<BaselineMessage> Element { get; } = (JsonTypeInfo<BaselineMessage>)ElementOptions.GetTypeInfo(typeof(BaselineMessage));

    private static JsonSerializerOptions Create(BaselineMessageConverter converter)
    {
        var options = new JsonSerializerOptions { TypeInfoResolver = BaselineJsonContext.Default, Converters = { converter } };
        options.MakeReadOnly();
        return options;
    }
}
