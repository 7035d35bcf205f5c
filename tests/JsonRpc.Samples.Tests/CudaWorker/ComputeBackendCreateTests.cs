using CudaWorker.Compute;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Samples.Tests.CudaWorker;

public sealed class ComputeBackendCreateTests
{
    [NoCudaFact]
    public void Create_NoGpu_FallsBackToCpuAndLogsWhyOnce()
    {
        var logger = new ListLogger();

        using var backend = ComputeBackend.Create(requireGpu: false, logger);

        Assert.IsType<CpuBackend>(backend);
        Assert.Equal(ComputeDeviceInfo.Cpu, backend.Info.Backend);
        Assert.False(string.IsNullOrWhiteSpace(backend.Info.CpuReason));
        var entry = Assert.Single(logger.Entries);
        Assert.Equal(LogLevel.Warning, entry.Level);
        Assert.Contains("on the CPU", entry.Message, StringComparison.Ordinal);
        Assert.Contains(backend.Info.CpuReason!, entry.Message, StringComparison.Ordinal);
    }

    [NoCudaFact]
    public void Create_NoGpuButRequired_ThrowsWithReasonAndLogsNothing()
    {
        var logger = new ListLogger();

        var ex = Assert.Throws<GpuUnavailableException>(() => ComputeBackend.Create(requireGpu: true, logger));

        CudaDevice.AssertExplains(ex.Reason);
        Assert.Contains("--require-gpu", ex.Message, StringComparison.Ordinal);
        Assert.Empty(logger.Entries);
    }

    [NoCudaFact]
    public void Create_NoGpu_ServesWithTheGivenLimits()
    {
        var limits = new ComputeLimits { MaxElements = 4 };
        using var backend = ComputeBackend.Create(requireGpu: false, new ListLogger(), limits);

        Assert.Same(limits, backend.Limits);
        Assert.Throws<ComputeShapeException>(() => backend.VectorAdd(new float[5], new float[5]));
        Assert.Equal([4f], backend.VectorAdd(new[] { 1f }, new[] { 3f }));
    }

    [CudaFact]
    public void Create_Gpu_PicksCudaAndLogsTheDeviceOnce()
    {
        var logger = new ListLogger();

        using var backend = ComputeBackend.Create(requireGpu: true, logger);

        Assert.Equal(ComputeDeviceInfo.Cuda, backend.Info.Backend);
        Assert.Null(backend.Info.CpuReason);
        var entry = Assert.Single(logger.Entries);
        Assert.Equal(LogLevel.Information, entry.Level);
        Assert.Contains(backend.Info.DeviceName, entry.Message, StringComparison.Ordinal);
    }
}
