namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A fact run against the fake CUDA driver: skipped where it cannot be built (not Linux, no C compiler).</summary>
public sealed class FakeCudaFactAttribute : FactAttribute
{
    public FakeCudaFactAttribute()
    {
        if (FakeCudaDriver.Unavailable is { } reason)
        {
            Skip = reason;
        }
    }
}
