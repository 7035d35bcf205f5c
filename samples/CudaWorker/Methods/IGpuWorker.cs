using CudaWorker.Compute;
using JsonRpc.Contracts;

namespace CudaWorker.Methods;

/// <summary>
/// The worker's methods as a JSON-RPC contract: the worker serves it (<c>AddTarget</c>), a caller calls it through a
/// generated proxy (<c>Attach</c>). Params go by name (<c>{"a": [1, 2], "b": [10, 20]}</c>) or by position
/// (<c>[[1, 2], [10, 20]]</c>); float32 values, with NaN and infinities as the strings "NaN", "Infinity", "-Infinity".
/// </summary>
[JsonRpcContract(typeof(CudaWorkerJsonContext))]
internal interface IGpuWorker
{
    /// <summary><c>gpu.vector_add</c>: <c>a + b</c>, two vectors of the same length.</summary>
    [JsonRpcMethod(GpuMethods.VectorAdd)]
    ValueTask<VectorResponse> VectorAddAsync(float[] a, float[] b, CancellationToken cancellationToken = default);

    /// <summary><c>gpu.saxpy</c>: <c>a * x + y</c>, a scalar and two vectors of the same length.</summary>
    [JsonRpcMethod(GpuMethods.Saxpy)]
    ValueTask<VectorResponse> SaxpyAsync(float a, float[] x, float[] y, CancellationToken cancellationToken = default);

    /// <summary><c>gpu.matmul</c>: <c>C (m×n) = A (m×k) · B (k×n)</c>, row-major.</summary>
    [JsonRpcMethod(GpuMethods.MatMul)]
    ValueTask<MatrixResponse> MatMulAsync(float[] a, float[] b, int m, int k, int n, CancellationToken cancellationToken = default);

    /// <summary><c>gpu.info</c>: the device (or why the CPU serves).</summary>
    [JsonRpcMethod(GpuMethods.Info)]
    Task<ComputeDeviceInfo> InfoAsync();
}
