using System.Runtime.InteropServices;

namespace CudaWorker.Cuda;

/// <summary>The NVRTC functions the worker uses to compile CUDA C to PTX at start, as source-generated P/Invoke.</summary>
internal static unsafe partial class Nvrtc
{
    static Nvrtc() => CudaLibraries.EnsureResolver();

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcVersion(out int major, out int minor);

    [LibraryImport(CudaLibraries.Nvrtc, StringMarshalling = StringMarshalling.Utf8)]
    public static partial NvrtcResult nvrtcCreateProgram(out nint program, string source, string name, int numHeaders, byte** headers, byte** includeNames);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcCompileProgram(nint program, int numOptions, byte** options);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcGetPTXSize(nint program, out nuint size);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcGetPTX(nint program, byte* ptx);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcGetProgramLogSize(nint program, out nuint size);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcGetProgramLog(nint program, byte* log);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial NvrtcResult nvrtcDestroyProgram(ref nint program);

    [LibraryImport(CudaLibraries.Nvrtc)]
    public static partial nint nvrtcGetErrorString(NvrtcResult result);

    /// <summary>Throws <see cref="NvrtcException"/> unless <paramref name="result"/> is success.</summary>
    public static void Check(NvrtcResult result, string function, string? log = null)
    {
        if (result != NvrtcResult.Success)
        {
            throw new NvrtcException(result, function, log);
        }
    }

    /// <summary>NVRTC's description of a code, e.g. <c>NVRTC_ERROR_COMPILATION (6)</c>.</summary>
    public static string Describe(NvrtcResult result)
        => $"{Marshal.PtrToStringUTF8(nvrtcGetErrorString(result)) ?? "nvrtcResult"} ({(int)result})";
}
