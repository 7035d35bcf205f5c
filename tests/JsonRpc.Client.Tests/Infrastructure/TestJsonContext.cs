using System.Text.Json.Serialization;

namespace JsonRpc.Client.Tests.Infrastructure;

public sealed record AddParams(int A, int B);

public sealed record Point(int X, int Y);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(bool))]
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(AddParams))]
[JsonSerializable(typeof(Point))]
[JsonSerializable(typeof(System.Text.Json.JsonElement))]
internal sealed partial class TestJsonContext : JsonSerializerContext;
