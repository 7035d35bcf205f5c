using JsonRpc.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace JsonRpc.Client.Hosting;

/// <summary>
/// One named client's connection in the host: opened when the host starts (retried with the reconnect back-off until it
/// opens), then kept by the client's own reconnect; serves the targets registered for it and registers with the router;
/// closed when the host stops. Its proxies and its <see cref="JsonRpcClient"/> come from here.
/// </summary>
internal sealed partial class HostedJsonRpcClient(string name, IServiceProvider services) : IHostedService, IAsyncDisposable
{
    private readonly ILogger _logger = (services.GetService(typeof(ILoggerFactory)) as ILoggerFactory)?.CreateLogger<HostedJsonRpcClient>() ?? NullLogger<HostedJsonRpcClient>.Instance;
    private volatile JsonRpcClient? _client;

    public string Name => name;

    /// <summary>The connected client; resolving a proxy before the host has started is an error that says so.</summary>
    public JsonRpcClient Client => _client ?? throw new InvalidOperationException(
        $"The JSON-RPC client '{name}' is not connected: it connects when the host starts (resolve its proxies or JsonRpcClient after IHost.StartAsync).");

    /// <summary>The client once connected, else null (for the health check).</summary>
    public JsonRpcClient? Current => _client;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var options = services.GetRequiredService<IOptionsMonitor<JsonRpcHostedClientOptions>>().Get(name);
        var targets = MyTargets();
        var client = await ConnectAsync(options, cancellationToken).ConfigureAwait(false);
        try
        {
            var host = new TargetHost(client);
            foreach (var target in targets)
            {
                target.AddTo(host, services);
            }

            var registerAs = options.Name ?? (targets.Count > 0 ? name : null);
            if (registerAs is not null)
            {
                await client.RegisterAsync(registerAs, cancellationToken).ConfigureAwait(false);
            }
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        _client = client;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _client, null) is { } client)
        {
            await client.DisposeAsync().ConfigureAwait(false);
        }
    }

    public ValueTask DisposeAsync() => new(StopAsync(default));

    private List<JsonRpcTargetRegistration> MyTargets()
    {
        var clients = new HashSet<string>(StringComparer.Ordinal);
        foreach (var client in services.GetServices<HostedJsonRpcClientName>())
        {
            clients.Add(client.Name);
        }

        var mine = new List<JsonRpcTargetRegistration>();
        foreach (var target in services.GetServices<JsonRpcTargetRegistration>())
        {
            if (target.ClientName is not { } clientName)
            {
                continue;
            }

            if (!clients.Contains(clientName))
            {
                throw new InvalidOperationException($"{target}: no JSON-RPC client is named '{clientName}' (services.AddJsonRpcClient(\"{clientName}\", …)).");
            }

            if (clientName == name)
            {
                mine.Add(target);
            }
        }

        return mine;
    }

    private async Task<JsonRpcClient> ConnectAsync(JsonRpcHostedClientOptions options, CancellationToken cancellationToken)
    {
        var reconnect = options.Client.Reconnect;
        var delay = reconnect.InitialDelay;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                var client = options.Uri is { } uri
                    ? await JsonRpcClient.ConnectAsync(uri, options.Client, cancellationToken).ConfigureAwait(false)
                    : await JsonRpcClient.ConnectAsync(options.Host ?? "127.0.0.1", options.Port!.Value, options.Client, cancellationToken).ConfigureAwait(false);
                return client;
            }
            catch (ArgumentException ex)
            {
                throw new InvalidOperationException(
                    $"JSON-RPC client '{name}' ({JsonRpcHostedClientOptions.SectionPrefix}:{name}): Client.{ex.ParamName}: {ex.Message}", ex);
            }
            catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException or JsonRpcConnectionLostException
                && !cancellationToken.IsCancellationRequested
                && reconnect.Enabled
                && (reconnect.MaxAttempts is not { } max || attempt < max))
            {
                Log.ConnectFailed(_logger, name, attempt, delay, ex.Message);
                await Task.Delay(delay, cancellationToken).ConfigureAwait(false);
                delay = TimeSpan.FromTicks(Math.Min(reconnect.MaxDelay.Ticks, (long)(delay.Ticks * reconnect.Multiplier)));
            }
        }
    }

    private sealed class TargetHost(JsonRpcClient client) : IJsonRpcTargetHost
    {
        public void AddTarget<TContract>(TContract target)
            where TContract : class
            => client.AddTarget(target);
    }

    private static partial class Log
    {
        [LoggerMessage(1, LogLevel.Warning, "JSON-RPC client '{Name}': connection attempt {Attempt} failed ({Reason}); next in {Delay}.")]
        public static partial void ConnectFailed(ILogger logger, string name, int attempt, TimeSpan delay, string reason);
    }
}
