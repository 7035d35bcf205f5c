namespace CudaWorker.Compute;

/// <summary>A GPU was required (<c>--require-gpu</c>) but none can be used; <see cref="Exception.Message"/> says why.</summary>
internal sealed class GpuUnavailableException(string reason)
    : Exception($"A CUDA GPU is required (--require-gpu) but none can be used: {reason}")
{
    /// <summary>Why no GPU can be used.</summary>
    public string Reason { get; } = reason;
}
