using CudaWorker;
using CudaWorker.Compute;
using CudaWorker.Methods;
using JsonRpc.Dispatch;
using Microsoft.Extensions.Logging;

WorkerOptions options;
try
{
    options = WorkerOptions.Parse(args);
}
catch (FormatException ex)
{
    Console.Error.WriteLine($"cuda-worker: {ex.Message}");
    Console.Error.WriteLine(WorkerOptions.Usage);
    return 2;
}

if (options.ShowHelp)
{
    Console.WriteLine(WorkerOptions.Usage);
    return 0;
}

// Logs go to stderr, so stdout stays free for anything a caller pipes.
using var loggerFactory = LoggerFactory.Create(static builder => builder
    .SetMinimumLevel(LogLevel.Information)
    .AddConsole(static console => console.LogToStandardErrorThreshold = LogLevel.Trace)
    .AddSimpleConsole(static console => console.SingleLine = true));
var logger = loggerFactory.CreateLogger("CudaWorker");

IComputeBackend backend;
try
{
    backend = ComputeBackend.Create(options.RequireGpu, logger, options.Limits, options.Device);
}
catch (GpuUnavailableException ex)
{
    Console.Error.WriteLine($"cuda-worker: {ex.Message}");
    return 3;
}

using (backend)
{
    var dispatcher = new JsonRpcDispatcher();
    GpuMethods.Register(dispatcher, backend);

    // Connecting to the router needs JsonRpc.Client, which is not in this build yet.
    Console.Error.WriteLine($"cuda-worker: the methods are ready on the {backend.Info.Backend}, but connecting to {options.Host}:{options.Port} needs JsonRpc.Client, which this build does not have yet.");
    return 1;
}
