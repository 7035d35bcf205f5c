using System.Text.Json.Serialization;

namespace JsonRpc.Core.Tests.Dispatch;

public sealed record SubtractParams(int Minuend, int Subtrahend);

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(bool))]
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(SubtractParams))]
[JsonSerializable(typeof(System.Text.Json.JsonElement))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
internal sealed partial class DispatchJsonContext : JsonSerializerContext;
