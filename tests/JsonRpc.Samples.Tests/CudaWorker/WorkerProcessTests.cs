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
        Assert.Contains(CudaDevice.Reason!, stderr, StringComparison.Ordinal);
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
}
