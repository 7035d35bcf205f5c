namespace CudaWorker.Cuda;

/// <summary>
/// A grow-only allocation of device memory, reused across calls so a call pays for <c>cuMemAlloc</c> only when it
/// needs more than any call before. Not thread-safe: its owner serializes access and makes the context current.
/// </summary>
internal sealed class DeviceBuffer
{
    // Round allocations up so a series of slightly larger calls does not reallocate every time.
    private const nuint Granularity = 1 << 20;

    private ulong _pointer;
    private nuint _capacity;

    /// <summary>Returns a device pointer to at least <paramref name="bytes"/> bytes.</summary>
    public ulong Ensure(nuint bytes)
    {
        if (bytes <= _capacity)
        {
            return _pointer;
        }

        Release();
        var size = (bytes + Granularity - 1) / Granularity * Granularity;
        CudaDriver.Check(CudaDriver.cuMemAlloc(out var pointer, size), nameof(CudaDriver.cuMemAlloc));
        _pointer = pointer;
        _capacity = size;
        return pointer;
    }

    /// <summary>Frees the memory; the next <see cref="Ensure"/> allocates again.</summary>
    public void Release()
    {
        if (_capacity != 0)
        {
            _ = CudaDriver.cuMemFree(_pointer);
            _pointer = 0;
            _capacity = 0;
        }
    }
}
