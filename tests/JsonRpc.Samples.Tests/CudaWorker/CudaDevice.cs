using CudaWorker.Compute;
using CudaWorker.Cuda;
using Microsoft.Extensions.Logging.Abstractions;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>Whether this machine has a usable CUDA device, found once by really opening it.</summary>
internal static class CudaDevice
{
    private static readonly Lazy<string?> Probe = new(static () =>
    {
        if (CudaBackend.TryCreate(0, ComputeLimits.Default, NullLogger.Instance, out var backend, out var reason))
        {
            backend.Dispose();
            return null;
        }

        return reason;
    });

    /// <summary>True when device 0 opens and its kernels compile.</summary>
    public static bool IsAvailable => Probe.Value is null;

    /// <summary>Why no device is usable, or null.</summary>
    public static string? Reason => Probe.Value;
}
