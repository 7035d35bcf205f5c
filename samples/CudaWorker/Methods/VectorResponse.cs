namespace CudaWorker.Methods;

/// <summary>The result of <c>gpu.vector_add</c> and <c>gpu.saxpy</c>: <c>{"values": [11, 22]}</c>.</summary>
/// <param name="Values">The result vector, as long as the inputs.</param>
internal sealed record VectorResponse(float[] Values);
