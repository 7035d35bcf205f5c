using CudaWorker.Compute;

namespace JsonRpc.Samples.Tests.CudaWorker;

public sealed class ShapeValidationTests : IDisposable
{
    private readonly CpuBackend _backend = new(new ComputeLimits { MaxElements = 100, MaxMultiplyAdds = 500 }, "tests");

    public void Dispose() => _backend.Dispose();

    [Fact]
    public void VectorAdd_LengthsDiffer_ThrowsShapeException()
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.VectorAdd(new float[3], new float[4]));
        Assert.Contains("'a' has 3 elements and 'b' has 4", ex.Message);
        Assert.Equal(-32602, ex.Code);
    }

    [Fact]
    public void VectorAdd_PastElementLimit_ThrowsShapeException()
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.VectorAdd(new float[101], new float[101]));
        Assert.Contains("limit of 100", ex.Message);
    }

    [Fact]
    public void Saxpy_LengthsDiffer_ThrowsShapeException()
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.Saxpy(2, new float[5], new float[2]));
        Assert.Contains("'x' has 5 elements and 'y' has 2", ex.Message);
    }

    [Fact]
    public void Saxpy_PastElementLimit_ThrowsShapeException()
        => Assert.Throws<ComputeShapeException>(() => _backend.Saxpy(2, new float[101], new float[101]));

    [Theory]
    [InlineData(0, 2, 2, "'m' must be a positive integer, but is 0")]
    [InlineData(2, -1, 2, "'k' must be a positive integer, but is -1")]
    [InlineData(2, 2, 0, "'n' must be a positive integer, but is 0")]
    [InlineData(int.MinValue, 2, 2, "'m' must be a positive integer")]
    public void MatMul_NonPositiveDimension_ThrowsShapeException(int m, int k, int n, string expected)
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[4], new float[4], m, k, n));
        Assert.Contains(expected, ex.Message);
    }

    [Fact]
    public void MatMul_ALengthIsNotMTimesK_ThrowsShapeException()
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[5], new float[6], 2, 3, 2));
        Assert.Contains("'a' must hold m*k = 2*3 = 6 elements (row-major), but has 5", ex.Message);
    }

    [Fact]
    public void MatMul_InnerDimensionsDoNotFit_ThrowsShapeException()
    {
        // A is 2x3 but B is given as 4x2: B's 8 elements are not k*n = 3*2.
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[6], new float[8], 2, 3, 2));
        Assert.Contains("'b' must hold k*n = 3*2 = 6 elements", ex.Message);
    }

    [Fact]
    public void MatMul_DimensionsWhoseProductOverflowsInt_ThrowsShapeException()
    {
        // 65536 * 65536 wraps to 0 in 32-bit arithmetic: the check must not be fooled into accepting empty data.
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(Array.Empty<float>(), Array.Empty<float>(), 65536, 65536, 1));
        Assert.Contains("4294967296", ex.Message);
    }

    [Fact]
    public void MatMul_ResultPastElementLimit_ThrowsShapeException()
    {
        // Inputs of 11 elements each, but the 11x11 result has 121 > 100.
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[11], new float[11], 11, 1, 11));
        Assert.Contains("m*n = 11*11 = 121 elements, more than the limit of 100", ex.Message);
    }

    [Fact]
    public void MatMul_InputPastElementLimit_ThrowsShapeException()
    {
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[101], new float[101], 1, 101, 1));
        Assert.Contains("'a' has 101 elements", ex.Message);
    }

    [Fact]
    public void MatMul_PastMultiplyAddLimit_ThrowsShapeException()
    {
        // 10x10 * 10x10: every array within 100 elements, but 1000 multiply-adds > 500.
        var ex = Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[100], new float[100], 10, 10, 10));
        Assert.Contains("1000 multiply-adds, more than the limit of 500", ex.Message);
    }

    [Fact]
    public void MatMul_AfterRejectedCalls_StillComputes()
    {
        Assert.Throws<ComputeShapeException>(() => _backend.MatMul(new float[3], new float[3], 2, 2, 2));

        Assert.Equal([2f], _backend.MatMul(new[] { 1f }, new[] { 2f }, 1, 1, 1));
    }
}
