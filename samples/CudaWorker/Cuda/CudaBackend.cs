using CudaWorker.Compute;
using Microsoft.Extensions.Logging;
using static CudaWorker.Cuda.CudaDriver;

namespace CudaWorker.Cuda;

/// <summary>
/// The kernels on a CUDA device through the driver API: the device's primary context, one module of NVRTC-compiled
/// kernels, and grow-only device buffers reused across calls.
/// </summary>
/// <remarks>
/// Thread-safety: calls come from any thread, concurrently. A CUDA context is current per thread, and the buffers are
/// shared, so every call takes one lock, pushes the context onto its thread, runs copy-in, kernel, synchronize and
/// copy-out, and pops the context before releasing the lock: the thread is left as it was, and calls are serialized,
/// which a single device executing on one stream would do anyway.
/// If the device fails (a sticky error such as an illegal address leaves the context unusable) the backend says so
/// once in the log and serves this and every later call on the CPU; running out of device memory sends only that call
/// to the CPU.
/// </remarks>
internal sealed partial class CudaBackend : ComputeBackend
{
    private readonly Lock _gate = new();
    private readonly ILogger _logger;
    private readonly int _device;
    private readonly nint _context;
    private readonly nint _module;
    private readonly nint _vectorAdd;
    private readonly nint _saxpy;
    private readonly nint _matMul;
    private readonly uint _maxGridY;
    private readonly DeviceBuffer _first = new();
    private readonly DeviceBuffer _second = new();
    private readonly DeviceBuffer _result = new();
    private volatile ComputeDeviceInfo _info;
    private bool _faulted;
    private bool _disposed;

    /// <inheritdoc/>
    public override ComputeDeviceInfo Info => _info;

    /// <inheritdoc/>
    protected override void VectorAddCore(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, float[] result)
    {
        if (!TryOnDevice(() => RunElementwise(_vectorAdd, a.Span, b.Span, result, alpha: 0f)))
        {
            CpuBackend.Add(a.Span, b.Span, result);
        }
    }

    /// <inheritdoc/>
    protected override void SaxpyCore(float alpha, ReadOnlyMemory<float> x, ReadOnlyMemory<float> y, float[] result)
    {
        if (!TryOnDevice(() => RunElementwise(_saxpy, x.Span, y.Span, result, alpha)))
        {
            CpuBackend.Saxpy(alpha, x.Span, y.Span, result);
        }
    }

    /// <inheritdoc/>
    protected override void MatMulCore(ReadOnlyMemory<float> a, ReadOnlyMemory<float> b, float[] result, int m, int k, int n, CancellationToken cancellationToken)
    {
        if (!TryOnDevice(() => RunMatMul(a.Span, b.Span, result, m, k, n)))
        {
            CpuBackend.Multiply(a, b, result, m, k, n, cancellationToken);
        }
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;

            // Best effort: after a sticky error these fail too, and there is nothing better to do with that.
            if (cuCtxPushCurrent(_context) == CudaResult.Success)
            {
                _first.Release();
                _second.Release();
                _result.Release();
                _ = cuModuleUnload(_module);
                _ = cuCtxPopCurrent(out _);
            }

            _ = cuDevicePrimaryCtxRelease(_device);
        }
    }

    /// <summary>
    /// Runs <paramref name="work"/> with the context current on this thread, under the lock; false when the call has
    /// to run on the CPU instead (the device failed now or before, or is out of memory).
    /// </summary>
    private bool TryOnDevice(Action work)
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_faulted)
            {
                return false;
            }

            try
            {
                Check(cuCtxPushCurrent(_context), nameof(cuCtxPushCurrent));
                try
                {
                    work();
                    return true;
                }
                finally
                {
                    _ = cuCtxPopCurrent(out _);
                }
            }
            catch (CudaException ex) when (ex.Result == CudaResult.OutOfMemory)
            {
                // Not sticky: give the memory back so later, smaller calls can still use the device.
                WorkerLog.GpuCallOnCpu(_logger, ex.Message);
                ReleaseBuffers();
                return false;
            }
            catch (CudaException ex)
            {
                _faulted = true;
                _info = _info with
                {
                    Backend = ComputeDeviceInfo.Cpu,
                    CpuReason = $"the CUDA device {_info.DeviceName} failed: {ex.Message}",
                };
                WorkerLog.GpuFaulted(_logger, ex.Message);
                return false;
            }
        }
    }

    private void ReleaseBuffers()
    {
        if (cuCtxPushCurrent(_context) == CudaResult.Success)
        {
            _first.Release();
            _second.Release();
            _result.Release();
            _ = cuCtxPopCurrent(out _);
        }
    }

    /// <summary>Runs <c>vector_add(first, second, result, n)</c> or <c>saxpy(first, second, result, n, alpha)</c>.</summary>
    private unsafe void RunElementwise(nint function, ReadOnlySpan<float> first, ReadOnlySpan<float> second, Span<float> result, float alpha)
    {
        var bytes = (nuint)first.Length * sizeof(float);
        var input0 = _first.Ensure(bytes);
        var input1 = _second.Ensure(bytes);
        var output = _result.Ensure(bytes);
        long count = first.Length;
        fixed (float* host0 = first, host1 = second, hostResult = result)
        {
            Check(cuMemcpyHtoD(input0, host0, bytes), nameof(cuMemcpyHtoD));
            Check(cuMemcpyHtoD(input1, host1, bytes), nameof(cuMemcpyHtoD));

            // vector_add declares four parameters and reads four of these; saxpy reads all five.
            var arguments = stackalloc void*[5];
            arguments[0] = &input0;
            arguments[1] = &input1;
            arguments[2] = &output;
            arguments[3] = &count;
            arguments[4] = &alpha;
            var blocks = (uint)Math.Min((count + CudaKernels.VectorBlock - 1) / CudaKernels.VectorBlock, ushort.MaxValue);
            Check(cuLaunchKernel(function, blocks, 1, 1, CudaKernels.VectorBlock, 1, 1, 0, 0, arguments, null), nameof(cuLaunchKernel));
            Check(cuCtxSynchronize(), nameof(cuCtxSynchronize));
            Check(cuMemcpyDtoH(hostResult, output, bytes), nameof(cuMemcpyDtoH));
        }
    }

    /// <summary>Runs <c>matmul(a, b, c, m, k, n)</c> on a grid of Tile x Tile blocks.</summary>
    private unsafe void RunMatMul(ReadOnlySpan<float> a, ReadOnlySpan<float> b, Span<float> result, int m, int k, int n)
    {
        var aBytes = (nuint)a.Length * sizeof(float);
        var bBytes = (nuint)b.Length * sizeof(float);
        var resultBytes = (nuint)result.Length * sizeof(float);
        var deviceA = _first.Ensure(aBytes);
        var deviceB = _second.Ensure(bBytes);
        var deviceResult = _result.Ensure(resultBytes);
        fixed (float* hostA = a, hostB = b, hostResult = result)
        {
            Check(cuMemcpyHtoD(deviceA, hostA, aBytes), nameof(cuMemcpyHtoD));
            Check(cuMemcpyHtoD(deviceB, hostB, bBytes), nameof(cuMemcpyHtoD));

            var arguments = stackalloc void*[6];
            arguments[0] = &deviceA;
            arguments[1] = &deviceB;
            arguments[2] = &deviceResult;
            arguments[3] = &m;
            arguments[4] = &k;
            arguments[5] = &n;
            const int tile = CudaKernels.Tile;
            var gridX = (uint)((n + tile - 1) / tile);
            var gridY = Math.Min((uint)((m + tile - 1) / tile), _maxGridY);
            Check(cuLaunchKernel(_matMul, gridX, gridY, 1, tile, tile, 1, 0, 0, arguments, null), nameof(cuLaunchKernel));
            Check(cuCtxSynchronize(), nameof(cuCtxSynchronize));
            Check(cuMemcpyDtoH(hostResult, deviceResult, resultBytes), nameof(cuMemcpyDtoH));
        }
    }
}
