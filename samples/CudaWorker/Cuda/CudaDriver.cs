using System.Runtime.InteropServices;

namespace CudaWorker.Cuda;

/// <summary>
/// The CUDA driver API functions the worker uses, as source-generated P/Invoke (no runtime marshalling; AOT
/// friendly). Names and signatures follow <c>cuda.h</c>: <c>CUdevice</c> is an <see cref="int"/>, <c>CUdeviceptr</c>
/// a 64-bit <see cref="ulong"/>, contexts, modules and functions are opaque handles.
/// </summary>
internal static unsafe partial class CudaDriver
{
    static CudaDriver() => CudaLibraries.EnsureResolver();

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuInit(uint flags);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDriverGetVersion(out int version);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDeviceGetCount(out int count);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDeviceGet(out int device, int ordinal);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDeviceGetName(byte* name, int length, int device);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuDeviceTotalMem_v2")]
    public static partial CudaResult cuDeviceTotalMem(out nuint bytes, int device);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDeviceGetAttribute(out int value, CudaDeviceAttribute attribute, int device);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuDevicePrimaryCtxRetain(out nint context, int device);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuDevicePrimaryCtxRelease_v2")]
    public static partial CudaResult cuDevicePrimaryCtxRelease(int device);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuCtxPushCurrent_v2")]
    public static partial CudaResult cuCtxPushCurrent(nint context);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuCtxPopCurrent_v2")]
    public static partial CudaResult cuCtxPopCurrent(out nint context);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuCtxSynchronize();

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuModuleLoadData(out nint module, byte* image);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuModuleUnload(nint module);

    [LibraryImport(CudaLibraries.Driver, StringMarshalling = StringMarshalling.Utf8)]
    public static partial CudaResult cuModuleGetFunction(out nint function, nint module, string name);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuMemAlloc_v2")]
    public static partial CudaResult cuMemAlloc(out ulong pointer, nuint bytes);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuMemFree_v2")]
    public static partial CudaResult cuMemFree(ulong pointer);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuMemcpyHtoD_v2")]
    public static partial CudaResult cuMemcpyHtoD(ulong destination, void* source, nuint bytes);

    [LibraryImport(CudaLibraries.Driver, EntryPoint = "cuMemcpyDtoH_v2")]
    public static partial CudaResult cuMemcpyDtoH(void* destination, ulong source, nuint bytes);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuLaunchKernel(
        nint function,
        uint gridDimX,
        uint gridDimY,
        uint gridDimZ,
        uint blockDimX,
        uint blockDimY,
        uint blockDimZ,
        uint sharedMemBytes,
        nint stream,
        void** kernelParams,
        void** extra);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuGetErrorName(CudaResult error, out nint name);

    [LibraryImport(CudaLibraries.Driver)]
    public static partial CudaResult cuGetErrorString(CudaResult error, out nint description);

    /// <summary>Throws <see cref="CudaException"/> unless <paramref name="result"/> is success.</summary>
    public static void Check(CudaResult result, string function)
    {
        if (result != CudaResult.Success)
        {
            throw new CudaException(result, function);
        }
    }

    /// <summary>The driver's name and description of a code, e.g. <c>CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected</c>.</summary>
    public static string Describe(CudaResult result)
    {
        var name = cuGetErrorName(result, out var namePointer) == CudaResult.Success ? Marshal.PtrToStringUTF8(namePointer) : null;
        var text = cuGetErrorString(result, out var textPointer) == CudaResult.Success ? Marshal.PtrToStringUTF8(textPointer) : null;
        return $"{name ?? "CUresult"} ({(int)result}){(text is null ? "" : ": " + text)}";
    }
}
