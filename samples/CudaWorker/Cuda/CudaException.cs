namespace CudaWorker.Cuda;

/// <summary>A CUDA driver API call failed.</summary>
internal sealed class CudaException(CudaResult result, string function)
    : Exception($"{function} failed: {CudaDriver.Describe(result)}")
{
    /// <summary>The driver's code.</summary>
    public CudaResult Result { get; } = result;

    /// <summary>The driver function that failed.</summary>
    public string Function { get; } = function;
}
