using System.Text.Json.Serialization;

namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>Source-generated metadata for the handlers' parameter and result types.</summary>
[JsonSerializable(typeof(int))]
internal sealed partial class BenchmarkJsonContext : JsonSerializerContext;
