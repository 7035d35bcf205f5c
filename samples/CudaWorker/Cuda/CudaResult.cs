namespace CudaWorker.Cuda;

/// <summary>The driver API's <c>CUresult</c>: the codes this worker names; any other value is passed through as is.</summary>
internal enum CudaResult
{
    Success = 0,
    InvalidValue = 1,
    OutOfMemory = 2,
    NotInitialized = 3,
    Deinitialized = 4,
    StubLibrary = 34,
    InsufficientDriver = 35,
    NoDevice = 100,
    InvalidDevice = 101,
    InvalidImage = 200,
    InvalidContext = 201,
    InvalidPtx = 218,
    UnsupportedPtxVersion = 222,
    NotFound = 500,
    IllegalAddress = 700,
    LaunchOutOfResources = 701,
    LaunchTimeout = 702,
    LaunchFailed = 719,
    SystemDriverMismatch = 803,
    Unknown = 999,
}
