using System.Reflection;
using System.Runtime.InteropServices;

namespace CudaWorker.Cuda;

/// <summary>
/// Finds the CUDA driver (<c>libcuda.so.1</c> / <c>nvcuda.dll</c>) and NVRTC (<c>libnvrtc.so.13</c>, <c>.12</c>, ...) and
/// resolves the <see cref="Driver"/> and <see cref="Nvrtc"/> library names of the P/Invoke declarations to them. Each
/// library is looked for once; what was loaded, or every name tried, is kept to explain a fallback to the CPU.
/// </summary>
internal static class CudaLibraries
{
    /// <summary>The library name the driver API declarations use.</summary>
    public const string Driver = "cuda";

    /// <summary>The library name the NVRTC declarations use.</summary>
    public const string Nvrtc = "nvrtc";

    /// <summary>An environment variable naming an NVRTC library file to try first (e.g. one from a pip wheel).</summary>
    public const string NvrtcPathVariable = "CUDAWORKER_NVRTC_PATH";

    private static readonly Lazy<Probe> DriverProbe = new(() => Load(DriverCandidates()));
    private static readonly Lazy<Probe> NvrtcProbe = new(() => Load(NvrtcCandidates()));

    static CudaLibraries() => NativeLibrary.SetDllImportResolver(typeof(CudaLibraries).Assembly, Resolve);

    /// <summary>Registers the resolver (the static constructor does); call before the first driver or NVRTC call.</summary>
    public static void EnsureResolver()
    {
    }

    /// <summary>Loads the driver library; <paramref name="detail"/> is the file loaded or the names tried.</summary>
    public static bool TryLoadDriver(out string detail) => DriverProbe.Value.Succeeded(out detail);

    /// <summary>Loads NVRTC; <paramref name="detail"/> is the file loaded or the names tried.</summary>
    public static bool TryLoadNvrtc(out string detail) => NvrtcProbe.Value.Succeeded(out detail);

    private static nint Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath) => libraryName switch
    {
        Driver => DriverProbe.Value.Handle,
        Nvrtc => NvrtcProbe.Value.Handle,
        _ => 0,
    };

    private static Probe Load(List<string> candidates)
    {
        foreach (var candidate in candidates)
        {
            if (NativeLibrary.TryLoad(candidate, out var handle))
            {
                return new Probe(handle, candidate);
            }
        }

        return new Probe(0, string.Join(", ", candidates));
    }

    private static List<string> DriverCandidates()
    {
        if (OperatingSystem.IsWindows())
        {
            return ["nvcuda.dll"];
        }

        return OperatingSystem.IsLinux() ? ["libcuda.so.1", "libcuda.so"] : [];
    }

    private static List<string> NvrtcCandidates()
    {
        var candidates = new List<string>();
        if (Environment.GetEnvironmentVariable(NvrtcPathVariable) is { Length: > 0 } explicitPath)
        {
            candidates.Add(explicitPath);
        }

        string[] names;
        string[] folders;
        if (OperatingSystem.IsWindows())
        {
            names = ["nvrtc64_130_0.dll", "nvrtc64_120_0.dll", "nvrtc64_112_0.dll"];
            folders = [.. CudaRoots(static root => [Path.Combine(root, "bin", "x64"), Path.Combine(root, "bin")])];
        }
        else if (OperatingSystem.IsLinux())
        {
            names = ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"];
            folders = [.. CudaRoots(static root => [Path.Combine(root, "lib64")]), "/usr/local/cuda/lib64"];
        }
        else
        {
            return candidates;
        }

        // The loader's own search first (LD_LIBRARY_PATH, ldconfig, PATH), then the toolkit's folders.
        candidates.AddRange(names);
        foreach (var folder in folders)
        {
            foreach (var name in names)
            {
                candidates.Add(Path.Combine(folder, name));
            }
        }

        return candidates;
    }

    private static IEnumerable<string> CudaRoots(Func<string, string[]> folders)
    {
        foreach (var variable in (string[])["CUDA_PATH", "CUDA_HOME"])
        {
            if (Environment.GetEnvironmentVariable(variable) is { Length: > 0 } root)
            {
                foreach (var folder in folders(root))
                {
                    yield return folder;
                }
            }
        }
    }

    private readonly record struct Probe(nint Handle, string Detail)
    {
        public bool Succeeded(out string detail)
        {
            detail = Detail;
            return Handle != 0;
        }
    }
}
