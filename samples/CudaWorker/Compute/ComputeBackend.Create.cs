using CudaWorker.Cuda;
using Microsoft.Extensions.Logging;

namespace CudaWorker.Compute;

internal abstract partial class ComputeBackend
{
    /// <summary>
    /// Picks the backend: the CUDA device <paramref name="device"/> when a driver, the device and NVRTC are usable,
    /// otherwise the CPU. Logs the choice exactly once; the CPU's log line and <see cref="ComputeDeviceInfo.CpuReason"/>
    /// say why no GPU is used.
    /// </summary>
    /// <exception cref="GpuUnavailableException"><paramref name="requireGpu"/> is set and no GPU can be used; nothing is logged.</exception>
    public static IComputeBackend Create(bool requireGpu, ILogger logger, ComputeLimits? limits = null, int device = 0)
    {
        ArgumentNullException.ThrowIfNull(logger);
        limits ??= ComputeLimits.Default;
        if (CudaBackend.TryCreate(device, limits, logger, out var cuda, out var reason))
        {
            var info = cuda.Info;
            WorkerLog.UsingCuda(logger, device, info.DeviceName, info.TotalMemoryBytes / (1024 * 1024), info.ComputeCapability, info.DriverVersion, info.NvrtcVersion);
            return cuda;
        }

        if (requireGpu)
        {
            throw new GpuUnavailableException(reason);
        }

        var cpu = new CpuBackend(limits, reason);
        WorkerLog.UsingCpu(logger, reason, cpu.Info.DeviceName);
        return cpu;
    }
}
