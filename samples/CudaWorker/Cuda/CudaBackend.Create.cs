using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Text;
using CudaWorker.Compute;
using Microsoft.Extensions.Logging;
using static CudaWorker.Cuda.CudaDriver;

namespace CudaWorker.Cuda;

internal sealed partial class CudaBackend
{
    private CudaBackend(DeviceProperties device, byte[] ptx, string nvrtcVersion, ComputeLimits limits, ILogger logger)
        : base(limits)
    {
        _logger = logger;
        _device = device.Handle;
        _maxGridY = (uint)device.MaxGridY;
        Check(cuDevicePrimaryCtxRetain(out _context, _device), nameof(cuDevicePrimaryCtxRetain));
        var pushed = false;
        try
        {
            Check(cuCtxPushCurrent(_context), nameof(cuCtxPushCurrent));
            pushed = true;
            unsafe
            {
                fixed (byte* image = ptx)
                {
                    Check(cuModuleLoadData(out _module, image), nameof(cuModuleLoadData));
                }
            }

            try
            {
                Check(cuModuleGetFunction(out _vectorAdd, _module, CudaKernels.VectorAdd), nameof(cuModuleGetFunction));
                Check(cuModuleGetFunction(out _saxpy, _module, CudaKernels.Saxpy), nameof(cuModuleGetFunction));
                Check(cuModuleGetFunction(out _matMul, _module, CudaKernels.MatMul), nameof(cuModuleGetFunction));
            }
            catch
            {
                _ = cuModuleUnload(_module);
                throw;
            }
        }
        catch
        {
            if (pushed)
            {
                _ = cuCtxPopCurrent(out _);
            }

            _ = cuDevicePrimaryCtxRelease(_device);
            throw;
        }

        _ = cuCtxPopCurrent(out _);
        _info = new ComputeDeviceInfo(
            ComputeDeviceInfo.Cuda,
            device.Name,
            device.TotalMemoryBytes,
            $"{device.Major}.{device.Minor}",
            device.Multiprocessors,
            device.DriverVersion,
            nvrtcVersion,
            Environment.ProcessorCount,
            Vector<float>.Count,
            CpuReason: null);
    }

    /// <summary>
    /// Opens CUDA device <paramref name="ordinal"/> and compiles the kernels for it. False, with the reason, when the
    /// driver, a device or NVRTC is missing or fails; never throws for those.
    /// </summary>
    public static bool TryCreate(
        int ordinal,
        ComputeLimits limits,
        ILogger logger,
        [NotNullWhen(true)] out CudaBackend? backend,
        [NotNullWhen(false)] out string? reason)
    {
        backend = null;
        reason = null;
        if (!CudaLibraries.TryLoadDriver(out var driver))
        {
            reason = $"no CUDA driver is installed (could not load {driver})";
            return false;
        }

        try
        {
            var initialized = cuInit(0);
            if (initialized != CudaResult.Success)
            {
                reason = $"the CUDA driver ({driver}) cannot be used: cuInit returned {Describe(initialized)}";
                return false;
            }

            Check(cuDeviceGetCount(out var count), nameof(cuDeviceGetCount));
            if (ordinal < 0 || ordinal >= count)
            {
                reason = count == 0
                    ? "the CUDA driver reports no devices"
                    : $"CUDA device {ordinal} was asked for, but the driver reports {count} device(s)";
                return false;
            }

            var device = DeviceProperties.Read(ordinal);
            if (!CudaLibraries.TryLoadNvrtc(out var nvrtc))
            {
                reason = $"found {device.Name}, but NVRTC, which compiles the kernels, is not installed (could not load {nvrtc})";
                return false;
            }

            var version = NvrtcCompiler.Version();
            var ptx = CompileKernels(device);
            backend = new CudaBackend(device, ptx, version, limits, logger);
            return true;
        }
        catch (Exception ex) when (ex is CudaException or NvrtcException or DllNotFoundException or EntryPointNotFoundException or BadImageFormatException)
        {
            reason = $"the CUDA device could not be set up: {ex.Message}";
            return false;
        }
    }

    private static byte[] CompileKernels(DeviceProperties device)
    {
        try
        {
            // PTX for the device's own virtual architecture; the driver JIT-compiles it once at module load.
            return NvrtcCompiler.CompileToPtx(CudaKernels.Source, CudaKernels.ProgramName, [$"--gpu-architecture=compute_{device.Major}{device.Minor}"]);
        }
        catch (NvrtcException ex) when (ex.Result == NvrtcResult.InvalidOption)
        {
            // An NVRTC older than the device does not know its architecture: PTX for NVRTC's default one runs on
            // newer devices too, because the driver compiles PTX forward.
            return NvrtcCompiler.CompileToPtx(CudaKernels.Source, CudaKernels.ProgramName, []);
        }
    }

    /// <summary>What the driver says about a device.</summary>
    private readonly record struct DeviceProperties(
        int Handle,
        string Name,
        long TotalMemoryBytes,
        int Major,
        int Minor,
        int Multiprocessors,
        int MaxGridY,
        string DriverVersion)
    {
        public static unsafe DeviceProperties Read(int ordinal)
        {
            Check(cuDeviceGet(out var device, ordinal), nameof(cuDeviceGet));
            const int nameCapacity = 256;
            var name = stackalloc byte[nameCapacity];
            name[0] = 0;
            Check(cuDeviceGetName(name, nameCapacity, device), nameof(cuDeviceGetName));
            Check(cuDeviceTotalMem(out var memory, device), nameof(cuDeviceTotalMem));
            Check(cuDriverGetVersion(out var driver), nameof(cuDriverGetVersion));
            var nameLength = new ReadOnlySpan<byte>(name, nameCapacity).IndexOf((byte)0);
            return new DeviceProperties(
                device,
                Encoding.UTF8.GetString(name, nameLength < 0 ? nameCapacity : nameLength),
                (long)memory,
                Attribute(device, CudaDeviceAttribute.ComputeCapabilityMajor),
                Attribute(device, CudaDeviceAttribute.ComputeCapabilityMinor),
                Attribute(device, CudaDeviceAttribute.MultiprocessorCount),
                Attribute(device, CudaDeviceAttribute.MaxGridDimY),
                $"{driver / 1000}.{driver % 1000 / 10}");
        }

        private static int Attribute(int device, CudaDeviceAttribute attribute)
        {
            Check(cuDeviceGetAttribute(out var value, attribute, device), nameof(cuDeviceGetAttribute));
            return value;
        }
    }
}
