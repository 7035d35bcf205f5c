using System.Net.Sockets;
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
        var clientOptions = new JsonRpcClientOptions
        {
            LoggerFactory = loggerFactory,
            MaxMessageSize = options.MaxMessageSize,
            AccessToken = options.AccessToken,
        };
        JsonRpcClient client;
        try
        {
            client = await JsonRpcClient.ConnectAsync(options.Host, options.Port, clientOptions, stop).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return 0;
        }
        catch (Exception ex) when (ex is SocketException or IOException or TimeoutException or JsonRpcConnectionLostException)
        {
            Log.CannotConnect(logger, options.Host, options.Port, ex.Message);
            return 1;
        }

        await using (client.ConfigureAwait(false))
        {
            var lost = new TaskCompletionSource<Exception?>(TaskCreationOptions.RunContinuationsAsynchronously);
            client.StateChanged += (_, change) =>
            {
                if (change.NewState == JsonRpcClientState.Disconnected)
                {
                    lost.TrySetResult(change.Exception);
                }
            };

            try
            {
                GpuMethods.Register(client, backend);
                await client.RegisterAsync(options.Name, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return 0;
            }
            catch (Exception ex) when (ex is JsonRpcRemoteException or JsonRpcConnectionLostException or TimeoutException)
            {
                Log.RegistrationFailed(logger, options.Name, ex.Message);
                return 1;
            }

            Log.Serving(logger, options.Name, options.Host, options.Port, backend.Info.Backend);
            var stopped = Task.Delay(Timeout.Infinite, stop);
            if (await Task.WhenAny(lost.Task, stopped).ConfigureAwait(false) == stopped)
            {
                return 0;
            }

            Log.ConnectionLost(logger, options.Host, options.Port, lost.Task.Result?.Message ?? "closed");
            return 1;
        }
    }
}
