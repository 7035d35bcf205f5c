namespace CudaWorker.Compute;

/// <summary>
/// The base of every backend: validates shapes and limits once for all of them, allocates the result, then hands
/// the checked inputs to the device-specific <c>…Core</c> method. <see cref="Create"/> picks the backend.
/// </summary>
internal abstract partial class ComputeBackend : IComputeBackend
{
    protected ComputeBackend(ComputeLimits limits)
    {
        ArgumentNullException.ThrowIfNull(limits);
        Limits = limits;
    }

    /// <inheritdoc/>
    public abstract ComputeDeviceInfo Info { get; }

    /// <inheritdoc/>
    public ComputeLimits Limits { get; }

    /// <inheritdoc/>
    public float[] VectorAdd(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, CancellationToken cancellationToken = default)
    {
        CheckVectors(a.Length, b.Length, "a", "b");
        cancellationToken.ThrowIfCancellationRequested();
        if (a.IsEmpty)
        {
            return [];
        }

        var result = GC.AllocateUninitializedArray<float>(a.Length);
        VectorAddCore(a, b, result);
        return result;
    }

    /// <inheritdoc/>
    public float[] Saxpy(float alpha, ReadOnlyMemory<float> x, ReadOnlyMemory<float> y, CancellationToken cancellationToken = default)
    {
        CheckVectors(x.Length, y.Length, "x", "y");
        cancellationToken.ThrowIfCancellationRequested();
        if (x.IsEmpty)
        {
            return [];
        }

        var result = GC.AllocateUninitializedArray<float>(x.Length);
        SaxpyCore(alpha, x, y, result);
        return result;
    }

    /// <inheritdoc/>
    public float[] MatMul(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, int m, int k, int n, CancellationToken cancellationToken = default)
    {
        CheckMatMul(a.Length, b.Length, m, k, n);
        cancellationToken.ThrowIfCancellationRequested();
        var result = new float[m * n];
        MatMulCore(a, b, result, m, k, n, cancellationToken);
        return result;
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Releases the backend's device resources.</summary>
    protected virtual void Dispose(bool disposing)
    {
    }

    /// <summary>Writes <c>a + b</c> into <paramref name="result"/>; all three have the same, non-zero length.</summary>
    protected abstract void VectorAddCore(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, float[] result);

    /// <summary>Writes <c>alpha * x + y</c> into <paramref name="result"/>; all three have the same, non-zero length.</summary>
    protected abstract void SaxpyCore(float alpha, ReadOnlyMemory<float> x, ReadOnlyMemory<float> y, float[] result);

    /// <summary>
    /// Writes <c>A · B</c> into the zeroed <paramref name="result"/> (m*n); the shapes are checked and every
    /// dimension is positive.
    /// </summary>
    protected abstract void MatMulCore(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, float[] result, int m, int k, int n, CancellationToken cancellationToken);
}
