using System.Runtime.InteropServices;
using System.Text;
using CudaWorker.Cuda;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>
/// The worker's CUDA C kernels compiled by a real NVRTC through the worker's own binding, no GPU needed: Debian's
/// <c>libnvrtc11.2</c> (CUDA 11.8's NVRTC, in the non-free component; .ci/run installs it) turns them into PTX, which
/// must hold each kernel's entry point for the architecture asked for.
/// </summary>
public sealed class NvrtcTests
{
    [NvrtcFact]
    public void Kernels_CompileToPtx_WithEveryEntryPoint()
    {
        CudaLibraries.EnsureResolver();
        Assert.True(CudaLibraries.TryLoadNvrtc(out var loaded), loaded);
        Assert.Matches(@"^\d+\.\d+$", NvrtcCompiler.Version());

        var ptx = Encoding.ASCII.GetString(NvrtcCompiler.CompileToPtx(CudaKernels.Source, CudaKernels.ProgramName, ["--gpu-architecture=compute_80"]));
        Assert.Contains(".target sm_80", ptx);
        foreach (var kernel in new[] { CudaKernels.VectorAdd, CudaKernels.Saxpy, CudaKernels.MatMul })
        {
            Assert.Matches($@"\.visible \.entry {kernel}\(", ptx);
        }
    }

    [NvrtcFact]
    public void BrokenSource_FailsWithTheCompilerLog()
    {
        CudaLibraries.EnsureResolver();
        var error = Assert.ThrowsAny<Exception>(() => NvrtcCompiler.CompileToPtx("extern \"C\" __global__ void broken( { }", "broken.cu", []));
        Assert.IsType<NvrtcException>(error);
        Assert.Contains("broken.cu", error.Message);
    }
}

/// <summary>
/// A fact that needs NVRTC, found by loading the library itself (not through the worker's binding): skipped where it is
/// absent, but under CI, which installs it, a missing NVRTC fails instead.
/// </summary>
public sealed class NvrtcFactAttribute : FactAttribute
{
    internal static readonly string[] Names = ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"];

    public NvrtcFactAttribute()
    {
        var present = OperatingSystem.IsLinux() && Array.Exists(Names, static name =>
        {
            if (!NativeLibrary.TryLoad(name, out var handle))
            {
                return false;
            }

            NativeLibrary.Free(handle);
            return true;
        });
        Skip = RequiredServer.SkipIfAbsent(present, $"NVRTC is not installed ({string.Join(", ", Names)}): apt-get install libnvrtc11.2 from Debian's non-free component");
    }
}
