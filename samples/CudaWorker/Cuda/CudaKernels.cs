namespace CudaWorker.Cuda;

/// <summary>The kernels as CUDA C, compiled to PTX by NVRTC when the worker starts.</summary>
internal static class CudaKernels
{
    /// <summary>The program name NVRTC reports in its log.</summary>
    public const string ProgramName = "cuda_worker_kernels.cu";

    /// <summary>Threads per block of the element-wise kernels.</summary>
    public const int VectorBlock = 256;

    /// <summary>The matmul tile edge: a block of Tile x Tile threads computes a Tile x Tile tile of C.</summary>
    public const int Tile = 16;

    /// <summary>The kernel names, as <c>extern "C"</c> keeps them.</summary>
    public const string VectorAdd = "vector_add";

    /// <inheritdoc cref="VectorAdd"/>
    public const string Saxpy = "saxpy";

    /// <inheritdoc cref="VectorAdd"/>
    public const string MatMul = "matmul";

    /// <summary>
    /// The source. The element-wise kernels use grid-stride loops, so any grid size covers any length. The matmul
    /// stages Tile x Tile tiles of A and B in shared memory, so each global element is read once per tile instead
    /// of once per product term; threads outside the matrix load zeros, so no dimension needs to be a multiple of
    /// Tile, and block rows stride over the tiles of C so M past the grid's Y limit still works.
    /// </summary>
    public static readonly string Source = $$"""
        #define TILE {{Tile}}

        extern "C" __global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                                              float* __restrict__ c, long long n)
        {
            const long long stride = (long long)gridDim.x * blockDim.x;
            for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            {
                c[i] = a[i] + b[i];
            }
        }

        extern "C" __global__ void saxpy(const float* __restrict__ x, const float* __restrict__ y,
                                         float* __restrict__ result, long long n, float alpha)
        {
            const long long stride = (long long)gridDim.x * blockDim.x;
            for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            {
                result[i] = alpha * x[i] + y[i];
            }
        }

        // C (M x N) = A (M x K) * B (K x N), all row-major. Launched with TILE x TILE threads per block.
        extern "C" __global__ void matmul(const float* __restrict__ A, const float* __restrict__ B,
                                          float* __restrict__ C, int M, int K, int N)
        {
            __shared__ float As[TILE][TILE];
            __shared__ float Bs[TILE][TILE];

            const int tx = threadIdx.x;
            const int ty = threadIdx.y;
            const int col = blockIdx.x * TILE + tx;

            // rowBase is the same for every thread of a block, so all of them reach each __syncthreads().
            for (int rowBase = blockIdx.y * TILE; rowBase < M; rowBase += gridDim.y * TILE)
            {
                const int row = rowBase + ty;
                float sum = 0.0f;
                for (int t = 0; t < K; t += TILE)
                {
                    As[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
                    Bs[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
                    __syncthreads();

                    #pragma unroll
                    for (int i = 0; i < TILE; ++i)
                    {
                        sum += As[ty][i] * Bs[i][tx];
                    }

                    __syncthreads();
                }

                if (row < M && col < N)
                {
                    C[(size_t)row * N + col] = sum;
                }
            }
        }
        """;
}
