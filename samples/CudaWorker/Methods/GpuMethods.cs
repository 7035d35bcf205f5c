using CudaWorker.Compute;
using JsonRpc.Client;
using JsonRpc.Dispatch;

namespace CudaWorker.Methods;

/// <summary>
/// The worker's JSON-RPC methods (the <see cref="IGpuWorker"/> contract) over an <see cref="IComputeBackend"/>: params in,
/// validated, computed, results out. Bad shapes throw <see cref="ComputeShapeException"/>, which the dispatcher answers
/// with Invalid params (-32602); params that do not bind (a missing or misspelt name, a wrong type) are answered -32602
/// by the generated binder before the method runs.
/// </summary>
internal static class GpuMethods
{
    /// <summary><c>gpu.vector_add</c>: <see cref="VectorAddRequest"/> in, <see cref="VectorResponse"/> out.</summary>
    public const string VectorAdd = "gpu.vector_add";

    /// <summary><c>gpu.saxpy</c>: <see cref="SaxpyRequest"/> in, <see cref="VectorResponse"/> out.</summary>
    public const string Saxpy = "gpu.saxpy";

    /// <summary><c>gpu.matmul</c>: <see cref="MatMulRequest"/> in, <see cref="MatrixResponse"/> out.</summary>
    public const string MatMul = "gpu.matmul";

    /// <summary><c>gpu.info</c>: no params, <see cref="ComputeDeviceInfo"/> out.</summary>
    public const string Info = "gpu.info";

    // Calls with at least this much work (elements touched, or multiply-adds) run on the thread pool, so a big matmul
    // does not hold up the thread that dispatches the next message.
    private const long InlineWorkLimit = 1 << 16;

    /// <summary>Serves <see cref="IGpuWorker"/> through <paramref name="client"/>; <c>RegisterAsync</c> announces its four methods to the router.</summary>
    public static void Register(JsonRpcClient client, IComputeBackend backend)
    {
        ArgumentNullException.ThrowIfNull(client);
        client.AddTarget<IGpuWorker>(new GpuWorker(backend));
    }

    /// <summary>Serves <see cref="IGpuWorker"/> from <paramref name="dispatcher"/>, over any other transport.</summary>
    public static void Register(JsonRpcDispatcher dispatcher, IComputeBackend backend)
    {
        ArgumentNullException.ThrowIfNull(dispatcher);
        dispatcher.AddTarget<IGpuWorker>(new GpuWorker(backend));
    }

    /// <summary>Runs <c>gpu.vector_add</c>.</summary>
    public static ValueTask<VectorResponse> VectorAddAsync(IComputeBackend backend, VectorAddRequest? request, CancellationToken cancellationToken)
    {
        var a = Required(request?.A, "a");
        var b = Required(request?.B, "b");
        return Run(
            (long)a.Length + b.Length,
            () => new VectorResponse(backend.VectorAdd(a, b, cancellationToken)),
            cancellationToken);
    }

    /// <summary>Runs <c>gpu.saxpy</c>.</summary>
    public static ValueTask<VectorResponse> SaxpyAsync(IComputeBackend backend, SaxpyRequest? request, CancellationToken cancellationToken)
    {
        var alpha = Required(request?.A, "a");
        var x = Required(request?.X, "x");
        var y = Required(request?.Y, "y");
        return Run(
            (long)x.Length + y.Length,
            () => new VectorResponse(backend.Saxpy(alpha, x, y, cancellationToken)),
            cancellationToken);
    }

    /// <summary>Runs <c>gpu.matmul</c>.</summary>
    public static ValueTask<MatrixResponse> MatMulAsync(IComputeBackend backend, MatMulRequest? request, CancellationToken cancellationToken)
    {
        var a = Required(request?.A, "a");
        var b = Required(request?.B, "b");
        var m = Required(request?.M, "m");
        var k = Required(request?.K, "k");
        var n = Required(request?.N, "n");
        return Run(
            (long)a.Length * Math.Max(n, 0),
            () => new MatrixResponse(backend.MatMul(a, b, m, k, n, cancellationToken), m, n),
            cancellationToken);
    }

    private static ValueTask<T> Run<T>(long work, Func<T> compute, CancellationToken cancellationToken)
        => work < InlineWorkLimit
            ? new ValueTask<T>(compute())
            : new ValueTask<T>(Task.Run(compute, cancellationToken));

    private static T Required<T>(T? value, string name)
        where T : class
        => value ?? throw new ComputeShapeException($"'{name}' is required.");

    private static T Required<T>(T? value, string name)
        where T : struct
        => value ?? throw new ComputeShapeException($"'{name}' is required.");
}
