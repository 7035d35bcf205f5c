namespace CudaWorker.Methods;

/// <summary>The result of <c>gpu.matmul</c>: <c>{"values": [58, 64, 139, 154], "rows": 2, "columns": 2}</c>, row-major.</summary>
/// <param name="Values">The product: <paramref name="Rows"/> * <paramref name="Columns"/> elements, row-major.</param>
/// <param name="Rows">m.</param>
/// <param name="Columns">n.</param>
internal sealed record MatrixResponse(float[] Values, int Rows, int Columns);
