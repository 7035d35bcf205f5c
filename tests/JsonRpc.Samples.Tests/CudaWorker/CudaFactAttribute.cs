namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A fact that needs a CUDA device: skipped, with the reason, where there is none.</summary>
public sealed class CudaFactAttribute : FactAttribute
{
    public CudaFactAttribute()
    {
        if (!CudaDevice.IsAvailable)
        {
            Skip = $"No CUDA device: {CudaDevice.Reason}";
        }
    }
}
