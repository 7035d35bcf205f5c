using System.Runtime.InteropServices;
using CudaWorker;
using CudaWorker.Compute;
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

// Logs go to stderr; stdout carries only the caller's report and --help.
using var loggerFactory = LoggerFactory.Create(static builder => builder
    .SetMinimumLevel(LogLevel.Information)
    .AddConsole(static console => console.LogToStandardErrorThreshold = LogLevel.Trace)
    .AddSimpleConsole(static console => console.SingleLine = true));
var logger = loggerFactory.CreateLogger("CudaWorker");

// Ctrl+C and SIGTERM (a service manager's stop) end the worker cleanly: the connection closes, the router drops its
// methods, and the exit code is 0.
using var stop = new CancellationTokenSource();
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);

if (options.Caller)
{
    return await CallerHost.RunAsync(options, loggerFactory, Console.Out, stop.Token);
}

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
    return await WorkerHost.RunAsync(options, backend, loggerFactory, stop.Token);
}

void Stop(PosixSignalContext context)
{
    context.Cancel = true;
    stop.Cancel();
}
