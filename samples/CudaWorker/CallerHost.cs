using System.Diagnostics;
using CudaWorker.Compute;
using CudaWorker.Methods;
using JsonRpc.Client;
using Microsoft.Extensions.Logging;

namespace CudaWorker;

/// <summary>
/// The caller: sends each method's work through the router to whichever worker serves it, checks every answer against
/// its own computation (double precision on the CPU, with the float32 rounding bound of each method), and prints the
/// time per call.
/// </summary>
internal static class CallerHost
{
    /// <summary>The exit code when a result does not match.</summary>
    public const int Mismatch = 4;

    // One float32 rounding: the relative error of a correctly rounded result.
    private static readonly double Unit = Math.Pow(2, -24);

    /// <summary>Runs the calls; 0 when every result checked out, <see cref="Mismatch"/> when one did not, 1 on failure.</summary>
    public static async Task<int> RunAsync(WorkerOptions options, ILoggerFactory loggerFactory, TextWriter output, CancellationToken stop)
    {
        var logger = loggerFactory.CreateLogger("CudaWorker.Caller");
        try
        {
            var client = await RouterSession.OpenAsync(options, $"cuda-caller-{Environment.ProcessId}", loggerFactory, logger, null, stop).ConfigureAwait(false);
            if (client is null)
            {
                return 1;
            }

            await using (client.ConfigureAwait(false))
            {
                return await CallAllAsync(client, options, output, stop).ConfigureAwait(false) ? 0 : Mismatch;
            }
        }
        catch (Exception ex) when (ex is JsonRpcRemoteException or JsonRpcConnectionLostException or TimeoutException or OperationCanceledException)
        {
            WorkerLog.CallerFailed(logger, ex.Message);
            return 1;
        }
    }

    private static async Task<bool> CallAllAsync(JsonRpcClient client, WorkerOptions options, TextWriter output, CancellationToken stop)
    {
        var worker = client.Attach<IGpuWorker>();
        var info = await worker.InfoAsync().WaitAsync(stop).ConfigureAwait(false);
        await output.WriteLineAsync(info is null
            ? "gpu.info: no answer"
            : $"gpu.info: {info.Backend}, {info.DeviceName}{(info.CpuReason is null ? "" : $" (on the CPU because {info.CpuReason})")}").ConfigureAwait(false);

        var n = options.Size;
        var random = new Random(20_261_121);
        var x = Fill(random, n * n);
        var y = Fill(random, n * n);
        const float alpha = 1.75f;
        var sums = new double[x.Length];
        var sumBounds = new double[x.Length];
        var saxpys = new double[x.Length];
        var saxpyBounds = new double[x.Length];
        for (var i = 0; i < x.Length; i++)
        {
            sums[i] = (double)x[i] + y[i];
            sumBounds[i] = Math.Abs(sums[i]) * Unit;
            saxpys[i] = ((double)alpha * x[i]) + y[i];
            saxpyBounds[i] = ((Math.Abs((double)alpha * x[i]) * 2) + Math.Abs(y[i])) * Unit;
        }

        var products = Multiply(x, y, n, out var productBounds);
        var ok = await MeasureAsync(
            output,
            $"gpu.vector_add {n * n}",
            options.Count,
            async () => (await worker.VectorAddAsync(x, y, stop).ConfigureAwait(false)).Values,
            sums,
            sumBounds).ConfigureAwait(false);
        ok &= await MeasureAsync(
            output,
            $"gpu.saxpy {n * n}",
            options.Count,
            async () => (await worker.SaxpyAsync(alpha, x, y, stop).ConfigureAwait(false)).Values,
            saxpys,
            saxpyBounds).ConfigureAwait(false);
        ok &= await MeasureAsync(
            output,
            $"gpu.matmul {n}x{n}x{n}",
            options.Count,
            async () => (await worker.MatMulAsync(x, y, n, n, n, stop).ConfigureAwait(false)).Values,
            products,
            productBounds).ConfigureAwait(false);
        await output.WriteLineAsync(ok ? "all results match" : "SOME RESULTS DO NOT MATCH").ConfigureAwait(false);
        return ok;
    }

    private static async Task<bool> MeasureAsync(TextWriter output, string label, int count, Func<Task<float[]?>> call, double[] expected, double[] bounds)
    {
        var ok = true;
        var worst = 0.0;
        double total = 0, fastest = double.MaxValue, slowest = 0;
        // Call -1 warms up (JIT on both sides, the worker's buffers): checked, but not timed.
        for (var i = -1; i < count; i++)
        {
            var started = Stopwatch.GetTimestamp();
            var values = await call().ConfigureAwait(false);
            var milliseconds = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            if (i >= 0)
            {
                total += milliseconds;
                fastest = Math.Min(fastest, milliseconds);
                slowest = Math.Max(slowest, milliseconds);
            }

            if (values is null || values.Length != expected.Length)
            {
                ok = false;
                continue;
            }

            for (var j = 0; j < values.Length; j++)
            {
                var error = Math.Abs(values[j] - expected[j]);
                worst = Math.Max(worst, error);
                ok &= error <= bounds[j] + 1e-30; // NaN fails too
            }
        }

        await output.WriteLineAsync(
            $"{label,-26} {count,5} calls {total / count,10:F2} ms/call (min {fastest:F2}, max {slowest:F2})   max error {worst:E1}   {(ok ? "OK" : "MISMATCH")}").ConfigureAwait(false);
        return ok;
    }

    private static float[] Fill(Random random, int length)
    {
        var values = new float[length];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = (float)((random.NextDouble() * 2) - 1);
        }

        return values;
    }

    /// <summary>The n×n product in double precision, and per element the float32 bound k * 2^-24 * sum |terms|, doubled.</summary>
    private static double[] Multiply(float[] a, float[] b, int n, out double[] bounds)
    {
        var product = new double[n * n];
        bounds = new double[n * n];
        var magnitude = new double[n];
        for (var i = 0; i < n; i++)
        {
            var row = product.AsSpan(i * n, n);
            Array.Clear(magnitude);
            for (var p = 0; p < n; p++)
            {
                double scale = a[(i * n) + p];
                var bRow = b.AsSpan(p * n, n);
                for (var j = 0; j < n; j++)
                {
                    var term = scale * bRow[j];
                    row[j] += term;
                    magnitude[j] += Math.Abs(term);
                }
            }

            for (var j = 0; j < n; j++)
            {
                bounds[(i * n) + j] = (2 * n * Unit * magnitude[j]) + 1e-6;
            }
        }

        return product;
    }
}
