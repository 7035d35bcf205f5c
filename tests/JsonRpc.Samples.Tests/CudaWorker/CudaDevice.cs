using System.Runtime.InteropServices;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>
/// Whether this machine has a CUDA device, asked of the driver itself (load <c>libcuda.so.1</c>, <c>cuInit</c>,
/// <c>cuDeviceGetCount</c>) and not of the worker's own binding: where a device is there, the GPU tests run, and a
/// regression in the worker's binding or kernels fails them instead of turning them into skips.
/// </summary>
internal static unsafe class CudaDevice
{
    private static readonly Lazy<string?> Probe = new(static () =>
    {
        var names = OperatingSystem.IsWindows() ? new[] { "nvcuda.dll" } : ["libcuda.so.1", "libcuda.so"];
        nint library = 0;
        foreach (var name in names)
        {
            if (NativeLibrary.TryLoad(name, out library))
            {
                break;
            }
        }

        if (library == 0)
        {
            return $"no CUDA driver library ({string.Join(", ", names)})";
        }

        var init = (delegate* unmanaged<uint, int>)NativeLibrary.GetExport(library, "cuInit");
        var count = (delegate* unmanaged<int*, int>)NativeLibrary.GetExport(library, "cuDeviceGetCount");
        var result = init(0);
        if (result != 0)
        {
            return $"cuInit failed with CUresult {result}";
        }

        int devices;
        result = count(&devices);
        return result != 0 ? $"cuDeviceGetCount failed with CUresult {result}" : devices == 0 ? "the driver reports no device" : null;
    });

    /// <summary>True when the driver reports at least one device.</summary>
    public static bool IsAvailable => Probe.Value is null;

    /// <summary>Why no device is usable, or null.</summary>
    public static string? Reason => Probe.Value;

    /// <summary>
    /// Checks the worker's own explanation of why it runs on the CPU against what the driver told this probe: null
    /// when a device is there; otherwise said, and naming the missing driver when its library is not installed.
    /// </summary>
    public static void AssertExplains(string? workerReason)
    {
        if (IsAvailable)
        {
            Assert.Null(workerReason);
            return;
        }

        Assert.False(string.IsNullOrWhiteSpace(workerReason), "the worker does not say why it runs on the CPU");
        if (Reason!.StartsWith("no CUDA driver library", StringComparison.Ordinal))
        {
            Assert.Contains("no CUDA driver", workerReason, StringComparison.Ordinal);
        }
    }
}
