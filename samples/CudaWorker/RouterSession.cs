using System.Net.Sockets;
using JsonRpc.Client;
using Microsoft.Extensions.Logging;

namespace CudaWorker;

/// <summary>Opening the connection to the router and registering on it, for the worker and the caller alike.</summary>
internal static class RouterSession
{
    /// <summary>
    /// Connects to the router named by <paramref name="options"/> and registers as <paramref name="name"/>, after
    /// <paramref name="prepare"/> has added the methods to announce. Null, with the reason logged, when the router
    /// cannot be reached or refuses the registration; <see cref="OperationCanceledException"/> when stopped.
    /// </summary>
    public static async Task<JsonRpcClient?> OpenAsync(
        WorkerOptions options,
        string name,
        ILoggerFactory loggerFactory,
        ILogger logger,
        Action<JsonRpcClient>? prepare,
        CancellationToken stop)
    {
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
        catch (Exception ex) when (ex is SocketException or IOException or TimeoutException or JsonRpcConnectionLostException)
        {
            WorkerLog.CannotConnect(logger, options.Host, options.Port, ex.Message);
            return null;
        }

        try
        {
            prepare?.Invoke(client);
            await client.RegisterAsync(name, stop).ConfigureAwait(false);
            return client;
        }
        catch (Exception ex) when (ex is JsonRpcRemoteException or JsonRpcConnectionLostException or TimeoutException)
        {
            WorkerLog.RegistrationFailed(logger, name, ex.Message);
            await client.DisposeAsync().ConfigureAwait(false);
            return null;
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }
}
