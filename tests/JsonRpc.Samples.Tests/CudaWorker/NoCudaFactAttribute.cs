namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A fact about the fallback to the CPU: skipped where a CUDA device is usable, since there is none to fall back from.</summary>
public sealed class NoCudaFactAttribute : FactAttribute
{
    public NoCudaFactAttribute()
    {
        if (CudaDevice.IsAvailable)
        {
            Skip = "A CUDA device is usable here, so the worker does not fall back to the CPU.";
        }
    }
}
