using System.Text.Json.Serialization;

namespace JsonRpc.LoadTest.Report;

/// <summary>Source-generated JSON for the reports: snake_case, indented.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower, WriteIndented = true)]
[JsonSerializable(typeof(LoadReport))]
public sealed partial class LoadReportJsonContext : JsonSerializerContext;
