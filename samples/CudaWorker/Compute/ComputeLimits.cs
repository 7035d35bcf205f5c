namespace CudaWorker.Compute;

/// <summary>How much work one call may ask for. Requests past a limit answer Invalid params instead of running.</summary>
internal sealed record ComputeLimits
{
    /// <summary>The default limit on elements per vector or matrix: 16 Mi floats (64 MiB).</summary>
    public const int DefaultMaxElements = 16 * 1024 * 1024;

    /// <summary>The default limit on multiply-adds per matmul: 2^33 (a 2048³ product).</summary>
    public const long DefaultMaxMultiplyAdds = 1L << 33;

    /// <summary>The defaults.</summary>
    public static ComputeLimits Default { get; } = new();

    /// <summary>The most elements any one input or result may have.</summary>
    public int MaxElements { get; init; } = DefaultMaxElements;

    /// <summary>The most multiply-adds (m*k*n) one matmul may take.</summary>
    public long MaxMultiplyAdds { get; init; } = DefaultMaxMultiplyAdds;
}
