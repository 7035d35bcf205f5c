using System.Text.Json.Serialization;
using CudaWorker.Compute;

namespace CudaWorker.Methods;

/// <summary>
/// Source-generated serialization for the methods' params and results. Names are camelCase; an unknown member in
/// params is an error (a misspelt <c>"alpha"</c> for <c>"a"</c> must not silently read as a missing scalar); NaN and
/// infinities travel as the strings <c>"NaN"</c>, <c>"Infinity"</c> and <c>"-Infinity"</c>, which JSON numbers cannot
/// express (float32 overflows to infinity easily).
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(VectorAddRequest))]
[JsonSerializable(typeof(SaxpyRequest))]
[JsonSerializable(typeof(MatMulRequest))]
[JsonSerializable(typeof(VectorResponse))]
[JsonSerializable(typeof(MatrixResponse))]
[JsonSerializable(typeof(ComputeDeviceInfo))]
[JsonSerializable(typeof(float[]))]
[JsonSerializable(typeof(float))]
[JsonSerializable(typeof(int))]
internal sealed partial class CudaWorkerJsonContext : JsonSerializerContext;
