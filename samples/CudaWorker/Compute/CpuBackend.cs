using System.Numerics;
using System.Runtime.InteropServices;

namespace CudaWorker.Compute;

/// <summary>
/// The kernels on the CPU, vectorized with <see cref="Vector{T}"/>; a large matmul is blocked for the caches and
/// spread over the cores. Stateless, so concurrent calls need no locking.
/// </summary>
internal sealed partial class CpuBackend : ComputeBackend
{
    /// <summary>Creates the backend; <paramref name="reason"/> says why the CPU serves (no driver, no device, ...).</summary>
    public CpuBackend(ComputeLimits limits, string reason)
        : base(limits)
    {
        Info = new ComputeDeviceInfo(
            ComputeDeviceInfo.Cpu,
            $"CPU ({RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} logical cores, {Vector<float>.Count} floats per SIMD vector)",
            GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
            ComputeCapability: null,
            MultiprocessorCount: null,
            DriverVersion: null,
            NvrtcVersion: null,
            Environment.ProcessorCount,
            Vector<float>.Count,
            reason);
    }

    /// <inheritdoc/>
    public override ComputeDeviceInfo Info { get; }

    /// <inheritdoc/>
    protected override void VectorAddCore(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, float[] result)
        => Add(a.Span, b.Span, result);

    /// <inheritdoc/>
    protected override void SaxpyCore(float alpha, ReadOnlyMemory<float> x, ReadOnlyMemory<float> y, float[] result)
        => Saxpy(alpha, x.Span, y.Span, result);

    /// <summary><c>result = a + b</c> element-wise.</summary>
    /// <remarks>Exactly <c>1 * a + b</c>: multiplying by one is exact in IEEE arithmetic, and the loop is memory-bound.</remarks>
    internal static void Add(ReadOnlySpan<float> a, ReadOnlySpan<float> b, Span<float> result) => Saxpy(1f, a, b, result);

    /// <summary><c>result = alpha * x + y</c> element-wise.</summary>
    internal static void Saxpy(float alpha, ReadOnlySpan<float> x, ReadOnlySpan<float> y, Span<float> result)
    {
        var scale = new Vector<float>(alpha);
        var vx = MemoryMarshal.Cast<float, Vector<float>>(x);
        var vy = MemoryMarshal.Cast<float, Vector<float>>(y);
        var vr = MemoryMarshal.Cast<float, Vector<float>>(result);
        vy = vy[..vx.Length];
        vr = vr[..vx.Length];
        for (var i = 0; i < vx.Length; i++)
        {
            vr[i] = (scale * vx[i]) + vy[i];
        }

        for (var i = vx.Length * Vector<float>.Count; i < x.Length; i++)
        {
            result[i] = (alpha * x[i]) + y[i];
        }
    }
}
