using Microsoft.Extensions.Logging;

namespace CudaWorker;

/// <summary>The worker's log messages, source-generated.</summary>
internal static partial class Log
{
    [LoggerMessage(1, LogLevel.Information, "Serving the gpu.* methods on CUDA device {Ordinal}: {Device}, {MemoryMiB} MiB, compute capability {ComputeCapability}, driver API {DriverVersion}, NVRTC {NvrtcVersion}")]
    public static partial void UsingCuda(ILogger logger, int ordinal, string device, long memoryMiB, string? computeCapability, string? driverVersion, string? nvrtcVersion);

    [LoggerMessage(2, LogLevel.Warning, "No usable CUDA GPU: {Reason}. Serving the gpu.* methods on the {Cpu}")]
    public static partial void UsingCpu(ILogger logger, string reason, string cpu);

    [LoggerMessage(3, LogLevel.Error, "The CUDA device failed ({Error}); this call and all later ones run on the CPU")]
    public static partial void GpuFaulted(ILogger logger, string error);

    [LoggerMessage(4, LogLevel.Warning, "The CUDA device could not take a call ({Error}); this call runs on the CPU")]
    public static partial void GpuCallOnCpu(ILogger logger, string error);
}
