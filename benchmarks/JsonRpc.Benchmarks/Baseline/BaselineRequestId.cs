using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>The baseline's id: a number or a string (or null), without boxing, as a careful hand-written model keeps it.</summary>
[JsonConverter(typeof(BaselineRequestIdConverter))]
public readonly struct BaselineRequestId
{
    public BaselineRequestId(long number) => Number = number;

    public BaselineRequestId(string? text) => Text = text;

    /// <summary>The numeric id, when <see cref="Text"/> is null and <see cref="IsNull"/> is false.</summary>
    public long Number { get; }

    /// <summary>The string id, or null for a numeric id.</summary>
    public string? Text { get; }

    public bool IsNull { get; init; }

    public static BaselineRequestId Null => new() { IsNull = true };
}
