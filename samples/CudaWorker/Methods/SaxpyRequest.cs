namespace CudaWorker.Methods;

/// <summary>
/// The params of <c>gpu.saxpy</c>, computing <c>a * x + y</c>: <c>{"a": 2, "x": [1, 2], "y": [10, 20]}</c>, a float32
/// scalar and two float32 vectors of the same length.
/// </summary>
/// <param name="A">The scalar.</param>
/// <param name="X">The vector scaled by <paramref name="A"/>.</param>
/// <param name="Y">The vector added, as long as <paramref name="X"/>.</param>
internal sealed record SaxpyRequest(float? A, float[]? X, float[]? Y);
