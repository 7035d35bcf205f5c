namespace CudaWorker.Methods;

/// <summary>
/// The params of <c>gpu.matmul</c>, computing <c>C (m×n) = A (m×k) · B (k×n)</c> with every matrix float32 and
/// row-major (element (i, j) of an r×c matrix at index <c>i * c + j</c>):
/// <c>{"a": [1, 2, 3, 4, 5, 6], "b": [7, 8, 9, 10, 11, 12], "m": 2, "k": 3, "n": 2}</c>.
/// </summary>
/// <param name="A">The left matrix: m*k elements.</param>
/// <param name="B">The right matrix: k*n elements.</param>
/// <param name="M">Rows of A and of the result; positive.</param>
/// <param name="K">Columns of A and rows of B; positive.</param>
/// <param name="N">Columns of B and of the result; positive.</param>
internal sealed record MatMulRequest(float[]? A, float[]? B, int? M, int? K, int? N);
