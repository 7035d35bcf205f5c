using Microsoft.Extensions.Logging;

namespace CudaWorker;

/// <summary>The worker's log messages, source-generated.</summary>
internal static partial class WorkerLog
{
    [LoggerMessage(1, LogLevel.Information, "Serving the gpu.* methods on CUDA device {Ordinal}: {Device}, {MemoryMiB} MiB, compute capability {ComputeCapability}, driver API {DriverVersion}, NVRTC {NvrtcVersion}")]
    public static partial void UsingCuda(ILogger logger, int ordinal, string device, long memoryMiB, string? computeCapability, string? driverVersion, string? nvrtcVersion);

    [LoggerMessage(2, LogLevel.Warning, "No usable CUDA GPU: {Reason}. Serving the gpu.* methods on the {Cpu}")]
    public static partial void UsingCpu(ILogger logger, string reason, string cpu);

    [LoggerMessage(3, LogLevel.Error, "The CUDA device failed ({Error}); this call and all later ones run on the CPU")]
    public static partial void GpuFaulted(ILogger logger, string error);

    [LoggerMessage(4, LogLevel.Warning, "The CUDA device could not take a call ({Error}); this call runs on the CPU")]
    public static partial void GpuCallOnCpu(ILogger logger, string error);

    [LoggerMessage(5, LogLevel.Error, "Cannot connect to the router at {Host}:{Port}: {Error}")]
    public static partial void CannotConnect(ILogger logger, string host, int port, string error);

    [LoggerMessage(6, LogLevel.Error, "Registering as {Name} failed: {Error}")]
    public static partial void RegistrationFailed(ILogger logger, string name, string error);

    [LoggerMessage(7, LogLevel.Information, "Registered as {Name} with the router at {Host}:{Port}; serving gpu.vector_add, gpu.saxpy, gpu.matmul and gpu.info on the {Backend}")]
    public static partial void Serving(ILogger logger, string name, string host, int port, string backend);

    [LoggerMessage(8, LogLevel.Error, "The connection to the router at {Host}:{Port} is lost for good: {Error}")]
    public static partial void ConnectionLost(ILogger logger, string host, int port, string error);

    [LoggerMessage(9, LogLevel.Error, "The caller stopped: {Error}")]
    public static partial void CallerFailed(ILogger logger, string error);

    [LoggerMessage(10, LogLevel.Information, "Stopping {Name}: closing the connection to the router")]
    public static partial void Stopping(ILogger logger, string name);
}
