namespace CudaWorker.Compute;

/// <summary>
/// The float32 kernels the worker serves, on one device. Implementations are thread-safe: calls may come concurrently.
/// Every method validates its shapes first and throws <see cref="ComputeShapeException"/> for ones that do not fit.
/// </summary>
internal interface IComputeBackend : IDisposable
{
    /// <summary>What runs the kernels: the CUDA device, or the CPU and why.</summary>
    ComputeDeviceInfo Info { get; }

    /// <summary>The size limits the backend enforces.</summary>
    ComputeLimits Limits { get; }

    /// <summary>Element-wise <c>a + b</c>; both vectors have the same length.</summary>
    float[] VectorAdd(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, CancellationToken cancellationToken = default);

    /// <summary>Element-wise <c>alpha * x + y</c>; <paramref name="x"/> and <paramref name="y"/> have the same length.</summary>
    float[] Saxpy(float alpha, ReadOnlyMemory<float> x, ReadOnlyMemory<float> y, CancellationToken cancellationToken = default);

    /// <summary>
    /// The row-major product <c>C (m×n) = A (m×k) · B (k×n)</c>: <paramref name="a"/> holds m*k elements,
    /// <paramref name="b"/> k*n, and the result m*n.
    /// </summary>
    float[] MatMul(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, int m, int k, int n, CancellationToken cancellationToken = default);
}
