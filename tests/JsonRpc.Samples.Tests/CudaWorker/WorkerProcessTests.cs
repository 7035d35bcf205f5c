namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>The built sample as a real process: its command line and its exit codes.</summary>
public sealed class WorkerProcessTests
{
    [NoCudaFact]
    public async Task Main_RequireGpuWithoutGpu_ExitsWithCode3AndSaysWhy()
    {
        var (exitCode, stdout, stderr) = await WorkerProcess.RunAsync("--require-gpu", "--port", "1");

        Assert.Equal(3, exitCode);
        Assert.Contains("A CUDA GPU is required (--require-gpu) but none can be used", stderr, StringComparison.Ordinal);
        if (CudaDevice.Reason!.StartsWith("no CUDA driver library", StringComparison.Ordinal))
        {
            Assert.Contains("no CUDA driver", stderr, StringComparison.Ordinal);
        }
        Assert.Empty(stdout);
    }

    [Fact]
    public async Task Main_UnknownOption_ExitsWithCode2AndUsage()
    {
        var (exitCode, _, stderr) = await WorkerProcess.RunAsync("--gpu-please");

        Assert.Equal(2, exitCode);
        Assert.Contains("Unknown option '--gpu-please'", stderr, StringComparison.Ordinal);
        Assert.Contains("Usage: CudaWorker", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Main_Help_PrintsUsageAndExitsWithCode0()
    {
        var (exitCode, stdout, _) = await WorkerProcess.RunAsync("--help");

        Assert.Equal(0, exitCode);
        Assert.Contains("--require-gpu", stdout, StringComparison.Ordinal);
    }

    [FakeCudaFact]
    public async Task Main_DriverAndDevicePresent_ServesOnCudaAndLogsTheDevice()
    {
        // The fake driver answers like a GPU would: the whole set-up (driver, device, NVRTC, module) goes through
        // the real P/Invoke declarations.
        var (_, _, stderr) = await WorkerProcess.RunAsync(FakeCudaDriver.Environment(), "--require-gpu", "--port", "1");

        Assert.Contains("on CUDA device 0: Fake GPU 0, 8192 MiB, compute capability 8.6, driver API 12.4, NVRTC 12.4", stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("on the CPU", stderr, StringComparison.Ordinal);
    }

    [FakeCudaFact]
    public async Task Main_DriverWithoutDevice_RequireGpuExitsWithCode3AndTheDriversReason()
    {
        var (exitCode, _, stderr) = await WorkerProcess.RunAsync(FakeCudaDriver.Environment(("FAKE_CUDA_NO_DEVICE", "1")), "--require-gpu");

        Assert.Equal(3, exitCode);
        Assert.Contains("cuInit returned CUDA_ERROR_FAKE_100 (100): reported by the fake driver", stderr, StringComparison.Ordinal);
    }
}
