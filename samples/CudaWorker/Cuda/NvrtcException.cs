namespace CudaWorker.Cuda;

/// <summary>An NVRTC call failed; a failed compilation carries the compiler's log.</summary>
internal sealed class NvrtcException(NvrtcResult result, string function, string? log)
    : Exception($"{function} failed: {Nvrtc.Describe(result)}{(string.IsNullOrWhiteSpace(log) ? "" : Environment.NewLine + log.Trim())}")
{
    /// <summary>NVRTC's code.</summary>
    public NvrtcResult Result { get; } = result;

    /// <summary>The compiler's log, when there was one.</summary>
    public string? Log { get; } = log;
}
