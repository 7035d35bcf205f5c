using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace CudaWorker.Compute;

/// <summary>
/// The shapes of a compute request do not fit (lengths differ, dimensions are not positive or do not match the data,
/// or the data is past a limit). A <see cref="JsonRpcMethodException"/> with code Invalid params (-32602), so the
/// dispatcher answers it as such and the worker goes on serving.
/// </summary>
internal sealed class ComputeShapeException(string message) : JsonRpcMethodException(JsonRpcErrorCodes.InvalidParams, message);
