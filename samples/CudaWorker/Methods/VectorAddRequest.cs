namespace CudaWorker.Methods;

/// <summary>
/// The params of <c>gpu.vector_add</c>: <c>{"a": [1, 2], "b": [10, 20]}</c>, two float32 vectors of the same length.
/// </summary>
/// <param name="A">The first vector.</param>
/// <param name="B">The second vector, as long as <paramref name="A"/>.</param>
internal sealed record VectorAddRequest(float[]? A, float[]? B);
