using System.Text.Json.Serialization;

namespace Calculator;

/// <summary>The spec's named params for subtract: <c>{"minuend": 42, "subtrahend": 23}</c>.</summary>
public sealed record SubtractArgs(int Minuend, int Subtrahend);

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(SubtractArgs))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
public sealed partial class CalculatorJson : JsonSerializerContext;
