namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>Naive reference implementations in double precision, and random data from fixed seeds.</summary>
internal static class Reference
{
    public static float[] Random(int seed, int length)
    {
        var random = new Random(seed);
        var values = new float[length];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = (float)((random.NextDouble() * 2) - 1);
        }

        return values;
    }

    public static double[] MatMul(float[] a, float[] b, int m, int k, int n, out double[] magnitude)
    {
        var c = new double[m * n];
        magnitude = new double[m * n];
        for (var i = 0; i < m; i++)
        {
            for (var j = 0; j < n; j++)
            {
                double sum = 0, abs = 0;
                for (var p = 0; p < k; p++)
                {
                    var term = (double)a[(i * k) + p] * b[(p * n) + j];
                    sum += term;
                    abs += Math.Abs(term);
                }

                c[(i * n) + j] = sum;
                magnitude[(i * n) + j] = abs;
            }
        }

        return c;
    }

    /// <summary>
    /// Asserts a float32 matmul against the double reference: each element within twice the worst-case float32
    /// summation error (k * 2^-24 * sum of |terms|), far tighter than one term (about sum/k), so a wrong index or a
    /// dropped term fails.
    /// </summary>
    public static void AssertMatMul(float[] a, float[] b, int m, int k, int n, float[] actual)
    {
        var expected = MatMul(a, b, m, k, n, out var magnitude);
        Assert.Equal(expected.Length, actual.Length);
        for (var i = 0; i < expected.Length; i++)
        {
            var tolerance = 1e-6 + (2 * k * Math.Pow(2, -24) * magnitude[i]);
            if (Math.Abs(expected[i] - actual[i]) > tolerance)
            {
                Assert.Fail($"C[{i / n}, {i % n}] = {actual[i]}, expected {expected[i]} ± {tolerance} (m={m}, k={k}, n={n})");
            }
        }
    }
}
