using CudaWorker.Compute;
using CudaWorker.Cuda;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>The CUDA path against the same references as the CPU; every test skips where no CUDA device is usable.</summary>
public sealed class CudaBackendTests
{
    [CudaFact]
    public void Info_Device_ReportsNameMemoryAndComputeCapability()
    {
        using var backend = Open();

        Assert.Equal(ComputeDeviceInfo.Cuda, backend.Info.Backend);
        Assert.False(string.IsNullOrWhiteSpace(backend.Info.DeviceName));
        Assert.True(backend.Info.TotalMemoryBytes > 0);
        Assert.Matches(@"^\d+\.\d+$", backend.Info.ComputeCapability);
        Assert.NotNull(backend.Info.NvrtcVersion);
    }

    [CudaFact]
    public void VectorAdd_Device_MatchesCpuExactly()
    {
        using var backend = Open();
        var a = Reference.Random(1, 1_000_003);
        var b = Reference.Random(2, 1_000_003);

        var result = backend.VectorAdd(a, b);

        for (var i = 0; i < a.Length; i++)
        {
            Assert.Equal(a[i] + b[i], result[i]);
        }
    }

    [CudaFact]
    public void Saxpy_Device_MatchesCpuWithinRounding()
    {
        using var backend = Open();
        var x = Reference.Random(3, 100_001);
        var y = Reference.Random(4, 100_001);

        var result = backend.Saxpy(1.5f, x, y);

        // The device may fuse the multiply-add (one rounding instead of two).
        for (var i = 0; i < x.Length; i++)
        {
            Assert.Equal((1.5 * x[i]) + y[i], result[i], 1e-6);
        }
    }

    [CudaFact]
    public void MatMul_Device_MatchesNaiveReference()
    {
        using var backend = Open();
        foreach (var (m, k, n) in new[] { (1, 1, 1), (3, 5, 7), (17, 33, 19), (128, 64, 96), (300, 257, 129) })
        {
            var a = Reference.Random(m + k, m * k);
            var b = Reference.Random(n + k, k * n);

            Reference.AssertMatMul(a, b, m, k, n, backend.MatMul(a, b, m, k, n));
        }
    }

    [CudaFact]
    public void MatMul_ConcurrentCalls_EachGetsItsOwnProduct()
    {
        using var backend = Open();
        const int calls = 12;
        var results = new float[calls][];
        Parallel.For(0, calls, i => results[i] = backend.MatMul(Reference.Random(i, 40 * 50), Reference.Random(100 + i, 50 * 30), 40, 50, 30));

        for (var i = 0; i < calls; i++)
        {
            Reference.AssertMatMul(Reference.Random(i, 40 * 50), Reference.Random(100 + i, 50 * 30), 40, 50, 30, results[i]);
        }

        Assert.Equal(ComputeDeviceInfo.Cuda, backend.Info.Backend); // no call fell back to the CPU
    }

    [CudaFact]
    public void MatMul_BadShape_ThrowsShapeExceptionBeforeTouchingTheDevice()
    {
        using var backend = Open();

        Assert.Throws<ComputeShapeException>(() => backend.MatMul(new float[5], new float[6], 2, 3, 2));
        Assert.Equal([2f], backend.MatMul(new[] { 1f }, new[] { 2f }, 1, 1, 1));
    }

    [CudaFact]
    public void Dispose_Twice_IsHarmlessAndLaterCallsThrow()
    {
        var backend = Open();
        backend.Dispose();
        backend.Dispose();

        Assert.Throws<ObjectDisposedException>(() => backend.VectorAdd(new[] { 1f }, new[] { 2f }));
    }

    private static CudaBackend Open()
    {
        Assert.True(CudaBackend.TryCreate(0, ComputeLimits.Default, new ListLogger(), out var backend, out var reason), reason);
        return backend;
    }
}
