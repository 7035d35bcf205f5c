using System.Buffers;
using System.Text;
using System.Text.Json;
using CudaWorker.Compute;
using CudaWorker.Methods;
using JsonRpc.Dispatch;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>The methods through a real <see cref="JsonRpcDispatcher"/>: JSON-RPC bytes in, bytes out.</summary>
public sealed class GpuMethodsTests : IDisposable
{
    private readonly CpuBackend _backend = new(new ComputeLimits { MaxElements = 5000, MaxMultiplyAdds = 300_000 }, "tests run on the CPU");
    private readonly JsonRpcDispatcher _dispatcher = new();

    public GpuMethodsTests() => GpuMethods.Register(_dispatcher, _backend);

    public void Dispose() => _backend.Dispose();

    [Fact]
    public void Register_Backend_AddsTheFourMethods()
        => Assert.Equal(["gpu.info", "gpu.matmul", "gpu.saxpy", "gpu.vector_add"], _dispatcher.Methods.Order(StringComparer.Ordinal));

    [Fact]
    public async Task VectorAdd_NamedParams_ReturnsSum()
    {
        using var response = await CallAsync("gpu.vector_add", """{"a": [1, 2, 3.5], "b": [10, 20, 30]}""");

        Assert.Equal([11f, 22f, 33.5f], Values(response));
    }

    [Theory]
    [InlineData("""[[1, 2, 3.5], [10, 20, 30]]""")]
    [InlineData("""{"b": [10, 20, 30], "a": [1, 2, 3.5], "note": "ignored, as StreamJsonRpc does"}""")]
    public async Task VectorAdd_PositionalParamsOrNamedInAnyOrder_ReturnsSum(string parameters)
    {
        using var response = await CallAsync("gpu.vector_add", parameters);

        Assert.Equal([11f, 22f, 33.5f], Values(response));
    }

    [Fact]
    public async Task Saxpy_NamedParams_ReturnsScaledSum()
    {
        using var response = await CallAsync("gpu.saxpy", """{"a": 2, "x": [1, 2], "y": [10, 20]}""");

        Assert.Equal([12f, 24f], Values(response));
    }

    [Fact]
    public async Task MatMul_SpecExample_ReturnsProductAndShape()
    {
        using var response = await CallAsync("gpu.matmul", """{"a": [1, 2, 3, 4, 5, 6], "b": [7, 8, 9, 10, 11, 12], "m": 2, "k": 3, "n": 2}""");

        var result = response.RootElement.GetProperty("result");
        Assert.Equal([58f, 64f, 139f, 154f], Values(response));
        Assert.Equal(2, result.GetProperty("rows").GetInt32());
        Assert.Equal(2, result.GetProperty("columns").GetInt32());
    }

    [Fact]
    public async Task MatMul_WorkPastInlineLimit_RunsOffThreadAndMatches()
    {
        // 64^3 = 262144 multiply-adds: past the inline limit, so the handler completes asynchronously.
        var a = Reference.Random(7, 64 * 64);
        var b = Reference.Random(8, 64 * 64);
        var request = JsonSerializer.Serialize(new MatMulRequest(a, b, 64, 64, 64), CudaWorkerJsonContext.Default.MatMulRequest);

        using var response = await CallAsync("gpu.matmul", request);

        Reference.AssertMatMul(a, b, 64, 64, 64, Values(response));
    }

    [Fact]
    public async Task VectorAdd_Overflow_ReturnsInfinityAsString()
    {
        using var response = await CallAsync("gpu.vector_add", """{"a": [3e38, "NaN"], "b": [3e38, 1]}""");

        var values = response.RootElement.GetProperty("result").GetProperty("values");
        Assert.Equal("Infinity", values[0].GetString());
        Assert.Equal("NaN", values[1].GetString());
    }

    [Fact]
    public async Task VectorAdd_NumberPastFloatRange_ReadsAsInfinity()
    {
        // The IEEE conversion of a decimal past float32's range, as float.Parse does it.
        using var response = await CallAsync("gpu.vector_add", """{"a": [1e39, -1e39], "b": [1, 1]}""");

        var values = response.RootElement.GetProperty("result").GetProperty("values");
        Assert.Equal("Infinity", values[0].GetString());
        Assert.Equal("-Infinity", values[1].GetString());
    }

    [Fact]
    public async Task Info_CpuBackend_ReportsCpuAndReason()
    {
        using var response = await CallAsync("gpu.info", null);

        var result = response.RootElement.GetProperty("result");
        Assert.Equal("cpu", result.GetProperty("backend").GetString());
        Assert.Equal("tests run on the CPU", result.GetProperty("cpuReason").GetString());
        Assert.Equal(Environment.ProcessorCount, result.GetProperty("processorCount").GetInt32());
        Assert.False(result.TryGetProperty("computeCapability", out _));
    }

    [Theory]
    [InlineData("gpu.vector_add", """{"a": [1], "b": [1, 2]}""", "'a' has 1 elements and 'b' has 2")]
    [InlineData("gpu.vector_add", """{"a": [1]}""", "Missing param: b (a, b)")]
    [InlineData("gpu.vector_add", null, "Expected params (a, b)")]
    [InlineData("gpu.vector_add", """{"a": null, "b": [1]}""", "'a' is required")]
    [InlineData("gpu.vector_add", """[[1], [2], [3]]""", "Too many params: expected 2 (a, b)")]
    [InlineData("gpu.vector_add", """{"a": "1,2", "b": [1]}""", "")]
    [InlineData("gpu.vector_add", """{"a": [1, true], "b": [1, 2]}""", "")]
    [InlineData("gpu.saxpy", """{"x": [1], "y": [1]}""", "Missing param: a (a, x, y)")]
    [InlineData("gpu.saxpy", """{"alpha": 2, "x": [1], "y": [1]}""", "Missing param: a (a, x, y)")]
    [InlineData("gpu.saxpy", """{"a": 2, "x": [1, 2], "y": [1]}""", "'x' has 2 elements and 'y' has 1")]
    [InlineData("gpu.matmul", """{"a": [1, 2], "b": [3, 4], "k": 2, "n": 1}""", "the params object lacks one of a, b, m, k, n")]
    [InlineData("gpu.matmul", """{"a": [1, 2], "b": [3, 4], "m": 1, "k": 2, "n": 2}""", "'b' must hold k*n = 2*2 = 4 elements")]
    [InlineData("gpu.matmul", """{"a": [1, 2], "b": [3, 4], "m": -1, "k": -2, "n": 1}""", "'m' must be a positive integer, but is -1")]
    [InlineData("gpu.matmul", """{"a": [1, 2], "b": [3, 4], "m": 1.5, "k": 2, "n": 1}""", "")]
    [InlineData("gpu.matmul", """{"a": [1, 2], "b": [3, 4], "m": 4294967297, "k": 2, "n": 1}""", "")]
    [InlineData("gpu.matmul", """{"a": [1], "b": [1], "m": 1000, "k": 1, "n": 1000}""", "'a' must hold m*k = 1000*1 = 1000 elements")]
    public async Task Method_BadShapes_AnswersInvalidParams(string method, string? parameters, string expectedMessage)
    {
        using var response = await CallAsync(method, parameters);

        var error = response.RootElement.GetProperty("error");
        Assert.Equal(-32602, error.GetProperty("code").GetInt32());
        Assert.Equal(7, response.RootElement.GetProperty("id").GetInt32());
        Assert.Contains(expectedMessage, Describe(error), StringComparison.Ordinal);
    }

    [Fact]
    public async Task VectorAdd_DataPastLimit_AnswersInvalidParamsAndKeepsServing()
    {
        var big = JsonSerializer.Serialize(new VectorAddRequest(new float[5001], new float[5001]), CudaWorkerJsonContext.Default.VectorAddRequest);

        using var rejected = await CallAsync("gpu.vector_add", big);
        using var served = await CallAsync("gpu.vector_add", """{"a": [1], "b": [2]}""");

        Assert.Equal(-32602, rejected.RootElement.GetProperty("error").GetProperty("code").GetInt32());
        Assert.Contains("more than the limit of 5000", Describe(rejected.RootElement.GetProperty("error")), StringComparison.Ordinal);
        Assert.Equal([3f], Values(served));
    }

    [Fact]
    public async Task MatMul_PastMultiplyAddLimitOffThread_AnswersInvalidParams()
    {
        // Each array fits (4900 <= 5000 elements), and 70^3 = 343000 multiply-adds is past the inline limit, so the
        // call goes to the thread pool and validation fails there.
        var request = JsonSerializer.Serialize(new MatMulRequest(new float[4900], new float[4900], 70, 70, 70), CudaWorkerJsonContext.Default.MatMulRequest);

        using var rejected = await CallAsync("gpu.matmul", request);

        var error = rejected.RootElement.GetProperty("error");
        Assert.Equal(-32602, error.GetProperty("code").GetInt32());
        Assert.Contains("343000 multiply-adds, more than the limit of 300000", Describe(error), StringComparison.Ordinal);
    }

    private static float[] Values(JsonDocument response)
        => JsonSerializer.Deserialize(response.RootElement.GetProperty("result").GetProperty("values"), CudaWorkerJsonContext.Default.SingleArray)!;

    private static string Describe(JsonElement error)
        => error.GetProperty("message").GetString() + (error.TryGetProperty("data", out var data) ? " " + data.GetRawText() : "");

    private async Task<JsonDocument> CallAsync(string method, string? parameters)
    {
        var request = parameters is null
            ? $$"""{"jsonrpc": "2.0", "id": 7, "method": "{{method}}"}"""
            : $$"""{"jsonrpc": "2.0", "id": 7, "method": "{{method}}", "params": {{parameters}}}""";
        var output = new ArrayBufferWriter<byte>();
        var answered = await _dispatcher.DispatchAsync(Encoding.UTF8.GetBytes(request), output).AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(answered);
        return JsonDocument.Parse(output.WrittenMemory);
    }
}
