using System.Text.Json.Serialization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>Source-generated JSON for our stack's streaming peers: <c>values</c>'s params and items.</summary>
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(int))]
internal sealed partial class StreamingJsonContext : JsonSerializerContext;
