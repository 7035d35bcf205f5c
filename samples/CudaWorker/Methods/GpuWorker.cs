using CudaWorker.Compute;

namespace CudaWorker.Methods;

/// <summary>Serves <see cref="IGpuWorker"/> on a compute backend (the GPU, or the CPU fallback).</summary>
internal sealed class GpuWorker(IComputeBackend backend) : IGpuWorker
{
    public ValueTask<VectorResponse> VectorAddAsync(float[] a, float[] b, CancellationToken cancellationToken)
        => GpuMethods.VectorAddAsync(backend, new VectorAddRequest(a, b), cancellationToken);

    public ValueTask<VectorResponse> SaxpyAsync(float a, float[] x, float[] y, CancellationToken cancellationToken)
        => GpuMethods.SaxpyAsync(backend, new SaxpyRequest(a, x, y), cancellationToken);

    public ValueTask<MatrixResponse> MatMulAsync(float[] a, float[] b, int m, int k, int n, CancellationToken cancellationToken)
        => GpuMethods.MatMulAsync(backend, new MatMulRequest(a, b, m, k, n), cancellationToken);

    public Task<ComputeDeviceInfo> InfoAsync() => Task.FromResult(backend.Info);
}
