namespace CudaWorker.Cuda;

/// <summary>NVRTC's <c>nvrtcResult</c>: the codes this worker names; any other value is passed through as is.</summary>
internal enum NvrtcResult
{
    Success = 0,
    OutOfMemory = 1,
    ProgramCreationFailure = 2,
    InvalidInput = 3,
    InvalidProgram = 4,
    InvalidOption = 5,
    Compilation = 6,
}
