namespace CudaWorker.Compute;

/// <summary>
/// What runs the kernels; also the result of <c>gpu.info</c>. For CUDA: the device's name, memory, compute capability
/// and the driver and NVRTC versions. For the CPU: the core count, the SIMD width, and why no GPU is used.
/// </summary>
/// <param name="Backend"><c>"cuda"</c> or <c>"cpu"</c>.</param>
/// <param name="DeviceName">The GPU's name, or a description of the CPU.</param>
/// <param name="TotalMemoryBytes">The GPU's memory, or the memory available to this process.</param>
/// <param name="ComputeCapability">The GPU's compute capability as <c>"major.minor"</c>; null on the CPU.</param>
/// <param name="MultiprocessorCount">The GPU's streaming multiprocessors; null on the CPU.</param>
/// <param name="DriverVersion">The CUDA driver API version as <c>"major.minor"</c>; null on the CPU.</param>
/// <param name="NvrtcVersion">The NVRTC version that compiled the kernels; null on the CPU.</param>
/// <param name="ProcessorCount">Logical CPU cores available to the process.</param>
/// <param name="VectorWidth">Floats per <see cref="System.Numerics.Vector{T}"/> on this CPU.</param>
/// <param name="CpuReason">Why the CPU serves the methods (no driver, no device, ...); null on CUDA.</param>
internal sealed record ComputeDeviceInfo(
    string Backend,
    string DeviceName,
    long TotalMemoryBytes,
    string? ComputeCapability,
    int? MultiprocessorCount,
    string? DriverVersion,
    string? NvrtcVersion,
    int ProcessorCount,
    int VectorWidth,
    string? CpuReason)
{
    /// <summary>The <see cref="Backend"/> value for a CUDA device.</summary>
    public const string Cuda = "cuda";

    /// <summary>The <see cref="Backend"/> value for the CPU.</summary>
    public const string Cpu = "cpu";
}
