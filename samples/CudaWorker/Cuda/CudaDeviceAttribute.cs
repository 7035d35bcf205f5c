namespace CudaWorker.Cuda;

/// <summary>The <c>CUdevice_attribute</c> values this worker reads.</summary>
internal enum CudaDeviceAttribute
{
    MaxGridDimY = 6,
    MultiprocessorCount = 16,
    ComputeCapabilityMajor = 75,
    ComputeCapabilityMinor = 76,
}
