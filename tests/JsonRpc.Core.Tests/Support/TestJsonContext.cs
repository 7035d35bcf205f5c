using System.Text.Json.Serialization;

namespace JsonRpc.Core.Tests.Support;

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(object[]))]
[JsonSerializable(typeof(Dictionary<string, int>))]
internal sealed partial class TestJsonContext : JsonSerializerContext;
