using CudaWorker.Compute;

namespace JsonRpc.Samples.Tests.CudaWorker;

public sealed class CpuBackendTests : IDisposable
{
    private readonly CpuBackend _backend = new(ComputeLimits.Default, "tests run on the CPU");

    public void Dispose() => _backend.Dispose();

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(1000)]
    [InlineData(100_003)]
    public void VectorAdd_RandomVectors_MatchesScalarSum(int length)
    {
        var a = Reference.Random(1, length);
        var b = Reference.Random(2, length);

        var result = _backend.VectorAdd(a, b);

        Assert.Equal(length, result.Length);
        for (var i = 0; i < length; i++)
        {
            Assert.Equal(a[i] + b[i], result[i]); // float addition is exact to compare: same IEEE operation
        }
    }

    [Fact]
    public void VectorAdd_EmptyVectors_ReturnsEmpty()
        => Assert.Empty(_backend.VectorAdd(Array.Empty<float>(), Array.Empty<float>()));

    [Theory]
    [InlineData(3, 2.5f)]
    [InlineData(17, -0.75f)]
    [InlineData(65_537, 3f)]
    public void Saxpy_RandomVectors_MatchesScalarFormula(int length, float alpha)
    {
        var x = Reference.Random(3, length);
        var y = Reference.Random(4, length);

        var result = _backend.Saxpy(alpha, x, y);

        Assert.Equal(length, result.Length);
        for (var i = 0; i < length; i++)
        {
            Assert.Equal((alpha * x[i]) + y[i], result[i]);
        }
    }

    [Fact]
    public void MatMul_SpecExample_ReturnsExactProduct()
    {
        float[] a = [1, 2, 3, 4, 5, 6];       // 2x3
        float[] b = [7, 8, 9, 10, 11, 12];    // 3x2

        var c = _backend.MatMul(a, b, 2, 3, 2);

        Assert.Equal([58f, 64f, 139f, 154f], c);
    }

    [Theory]
    [InlineData(1, 1, 1)]
    [InlineData(1, 300, 1)]       // a dot product
    [InlineData(5, 1, 9)]         // an outer product
    [InlineData(3, 5, 7)]         // smaller than a SIMD vector
    [InlineData(17, 33, 19)]      // SIMD tails everywhere
    [InlineData(64, 130, 70)]     // past the depth block of 128, below the parallel threshold
    [InlineData(130, 150, 515)]   // parallel, past the column block of 512
    [InlineData(1, 2000, 1100)]   // one wide row: parallel over column blocks
    public void MatMul_RandomMatrices_MatchesNaiveReference(int m, int k, int n)
    {
        var a = Reference.Random((m * 31) + k, m * k);
        var b = Reference.Random((n * 17) + k, k * n);

        var c = _backend.MatMul(a, b, m, k, n);

        Reference.AssertMatMul(a, b, m, k, n, c);
    }

    [Fact]
    public void MatMul_ConcurrentCalls_EachGetsItsOwnProduct()
    {
        const int calls = 16;
        var results = new float[calls][];
        Parallel.For(0, calls, i => results[i] = _backend.MatMul(Reference.Random(i, 40 * 50), Reference.Random(100 + i, 50 * 30), 40, 50, 30));

        for (var i = 0; i < calls; i++)
        {
            Reference.AssertMatMul(Reference.Random(i, 40 * 50), Reference.Random(100 + i, 50 * 30), 40, 50, 30, results[i]);
        }
    }

    [Fact]
    public void MatMul_CancelledToken_ThrowsOperationCanceled()
    {
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        Assert.ThrowsAny<OperationCanceledException>(() => _backend.MatMul(new float[4], new float[4], 2, 2, 2, cancelled.Token));
    }

    [Fact]
    public void Info_Cpu_ReportsReasonAndCores()
    {
        Assert.Equal(ComputeDeviceInfo.Cpu, _backend.Info.Backend);
        Assert.Equal("tests run on the CPU", _backend.Info.CpuReason);
        Assert.Equal(Environment.ProcessorCount, _backend.Info.ProcessorCount);
        Assert.Null(_backend.Info.ComputeCapability);
    }
}
