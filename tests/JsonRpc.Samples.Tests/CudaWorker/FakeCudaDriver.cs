using System.Diagnostics;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>
/// Builds the fake CUDA driver and NVRTC (FakeCuda/*.c) once per test run with the machine's C compiler, so a worker
/// process started with <see cref="Environment"/> finds them instead of real ones and takes its CUDA path.
/// </summary>
internal static class FakeCudaDriver
{
    private static readonly Lazy<string> Folder = new(Build);

    /// <summary>Why the fake cannot be built here, or null.</summary>
    public static string? Unavailable { get; } = !OperatingSystem.IsLinux()
        ? "the fake CUDA driver is a Linux shared library"
        : FindCompiler() is null ? "no C compiler (cc) on PATH to build the fake CUDA driver" : null;

    /// <summary>The environment that makes a child process load the fake libraries.</summary>
    public static Dictionary<string, string> Environment(params (string Name, string Value)[] switches)
    {
        var environment = new Dictionary<string, string> { ["LD_LIBRARY_PATH"] = Folder.Value, ["CUDAWORKER_NVRTC_PATH"] = "" };
        foreach (var (name, value) in switches)
        {
            environment[name] = value;
        }

        return environment;
    }

    private static string Build()
    {
        var folder = Path.Combine(Path.GetTempPath(), $"cudaworker-fake-{System.Environment.ProcessId}");
        Directory.CreateDirectory(folder);
        AppDomain.CurrentDomain.ProcessExit += (_, _) => Directory.Delete(folder, recursive: true);
        Compile("fake_cuda.c", Path.Combine(folder, "libcuda.so.1"));
        Compile("fake_nvrtc.c", Path.Combine(folder, "libnvrtc.so.12"));
        return folder;
    }

    private static void Compile(string source, string output)
    {
        var start = new ProcessStartInfo(FindCompiler()!)
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (var arg in (string[])["-shared", "-fPIC", "-O1", "-o", output, Path.Combine(AppContext.BaseDirectory, "FakeCuda", source)])
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromSeconds(60)))
        {
            process.Kill();
            throw new TimeoutException($"cc did not build {source} within 60 s.");
        }

        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"cc failed to build {source}: {errors.Result}");
        }
    }

    private static string? FindCompiler()
    {
        foreach (var folder in (System.Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(folder, "cc");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }
}
