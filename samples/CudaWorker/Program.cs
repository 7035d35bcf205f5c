using CudaWorker.Compute;
using Microsoft.Extensions.Logging;

using var loggerFactory = LoggerFactory.Create(static builder => builder.AddSimpleConsole());
var logger = loggerFactory.CreateLogger("CudaWorker");
try
{
    using var backend = ComputeBackend.Create(args.Contains("--require-gpu"), logger);
    Console.WriteLine(backend.Info);
    return 0;
}
catch (GpuUnavailableException ex)
{
    Console.Error.WriteLine(ex.Message);
    return 3;
}
