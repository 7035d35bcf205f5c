using CudaWorker.Compute;
using CudaWorker.Methods;
using JsonRpc.Client;
using Microsoft.Extensions.Logging;

namespace CudaWorker;

/// <summary>Connects to the router, registers the worker and its methods, and serves until stopped.</summary>
internal static class WorkerHost
{
    /// <summary>
    /// Serves <paramref name="backend"/> through the router until <paramref name="stop"/> fires (exit code 0) or the
    /// connection is lost for good (1). A router that cannot be reached at start is an error (1): the client's
    /// reconnect covers losses after that.
    /// </summary>
    public static async Task<int> RunAsync(WorkerOptions options, IComputeBackend backend, ILoggerFactory loggerFactory, CancellationToken stop)
    {
        var logger = loggerFactory.CreateLogger("CudaWorker");
        var lost = new TaskCompletionSource<Exception?>(TaskCreationOptions.RunContinuationsAsynchronously);
        JsonRpcClient? client;
        try
        {
            client = await RouterSession.OpenAsync(options, options.Name, loggerFactory, logger, Prepare, stop).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return 0;
        }

        if (client is null)
        {
            return 1;
        }

        await using (client.ConfigureAwait(false))
        {
            WorkerLog.Serving(logger, options.Name, options.Host, options.Port, backend.Info.Backend);
            var stopped = Task.Delay(Timeout.Infinite, stop);
            if (await Task.WhenAny(lost.Task, stopped).ConfigureAwait(false) == stopped)
            {
                WorkerLog.Stopping(logger, options.Name);
                return 0;
            }

            WorkerLog.ConnectionLost(logger, options.Host, options.Port, (await lost.Task.ConfigureAwait(false))?.Message ?? "closed");
            return 1;
        }

        void Prepare(JsonRpcClient connected)
        {
            connected.StateChanged += (_, change) =>
            {
                if (change.NewState == JsonRpcClientState.Disconnected)
                {
                    lost.TrySetResult(change.Exception);
                }
            };
            GpuMethods.Register(connected, backend);
        }
    }
}
