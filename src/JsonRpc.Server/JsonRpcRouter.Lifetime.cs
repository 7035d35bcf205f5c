using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    private readonly Timer _timer;
    private long _callTimeoutMs;
    private long _connectionSweepMs;
    private long _nextConnectionSweep;
    private int _ticking;
    private int _shuttingDown;
    private Task? _shutdown;

    /// <summary>True once <see cref="ShutdownAsync"/> has begun: new calls and registrations are refused.</summary>
    public bool IsShuttingDown => Volatile.Read(ref _shuttingDown) != 0;

    /// <summary>
    /// Shuts the router down gracefully: refuses new calls, gives calls already routed up to
    /// <see cref="JsonRpcRouterOptions.ShutdownTimeout"/> to be answered, fails the rest with
    /// <see cref="RouterErrorCodes.ShuttingDown"/>, sends what is queued and closes every connection.
    /// </summary>
    public Task ShutdownAsync(CancellationToken cancellationToken = default)
    {
        if (Interlocked.Exchange(ref _shuttingDown, 1) == 0)
        {
            _shutdown = RunShutdownAsync(cancellationToken);
        }

        return _shutdown ?? Task.CompletedTask;
    }

    private async Task RunShutdownAsync(CancellationToken cancellationToken)
    {
        await Task.Yield();
        RouterLog.ShuttingDown(Logger, Volatile.Read(ref Counters.PendingCalls), Volatile.Read(ref Counters.Connections));
        var deadline = Environment.TickCount64 + (long)Options.ShutdownTimeout.TotalMilliseconds;
        await WaitUntilAsync(() => Volatile.Read(ref Counters.PendingCalls) == 0 && Volatile.Read(ref _hostCallsInProgress) == 0,
            deadline, cancellationToken).ConfigureAwait(false);

        // Host methods still running are told to stop; their answers (or cancellation errors) still go out.
        await _stopping.CancelAsync().ConfigureAwait(false);

        foreach (var connection in _connections.Keys)
        {
            connection.FailInFlight(close: false, shuttingDown: true);
        }

        foreach (var connection in _connections.Keys)
        {
            connection.Close(CloseReason.ShuttingDown);
        }

        // Connections flush their last replies and end; each is cut off after its own drain timeout.
        await WaitUntilAsync(() => _connections.IsEmpty, Environment.TickCount64 + 5000, cancellationToken).ConfigureAwait(false);
    }

    private static async Task WaitUntilAsync(Func<bool> condition, long deadline, CancellationToken cancellationToken)
    {
        while (!condition() && Environment.TickCount64 < deadline && !cancellationToken.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(10, cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private Timer StartTimer()
    {
        _callTimeoutMs = (long)Options.CallTimeout.TotalMilliseconds;
        var connectionLimit = Math.Min(
            Options.KeepAliveTimeout > TimeSpan.Zero ? (long)Options.KeepAliveTimeout.TotalMilliseconds : long.MaxValue,
            Options.RequireRegistration ? (long)Options.RegistrationTimeout.TotalMilliseconds : long.MaxValue);

        // Timeouts fire within an eighth of the call timeout; idle checks within a quarter of their limit.
        _connectionSweepMs = Math.Clamp(connectionLimit / 4, 10, 1000);
        var tick = Math.Clamp(Math.Min(_callTimeoutMs > 0 ? _callTimeoutMs / 8 : 1000, _connectionSweepMs), 10, 1000);
        return new Timer(static state => ((JsonRpcRouter)state!).OnTick(), this, tick, tick);
    }

    private void OnTick()
    {
        if (Interlocked.Exchange(ref _ticking, 1) != 0)
        {
            return;
        }

        try
        {
            var now = Environment.TickCount64;
            SweepTimeouts(now);
            if (now >= _nextConnectionSweep)
            {
                _nextConnectionSweep = now + _connectionSweepMs;
                SweepConnections(now);
            }
        }
        finally
        {
            Volatile.Write(ref _ticking, 0);
        }
    }

    private void SweepConnections(long now)
    {
        var keepAlive = (long)Options.KeepAliveTimeout.TotalMilliseconds;
        var registration = (long)Options.RegistrationTimeout.TotalMilliseconds;
        foreach (var connection in _connections.Keys)
        {
            if (connection.IsClosing || connection.IsPeer)
            {
                continue; // a cluster node's liveness is the cluster's heartbeat
            }

            if (keepAlive > 0 && now - connection.LastActivity > keepAlive)
            {
                CloseWithError(connection, CloseReason.IdleTimeout, RouterErrorCodes.IdleTimeout, "Idle timeout",
                    $"Nothing was received for {keepAlive} ms.");
            }
            else if (keepAlive > 0 && connection.PartialSince is > 0 and var since && now - since > keepAlive)
            {
                CloseWithError(connection, CloseReason.MessageTimeout, RouterErrorCodes.IdleTimeout, "Message timeout",
                    $"A message took longer than {keepAlive} ms to arrive.");
            }
            else if (Options.RequireRegistration && connection.Name is null && now - connection.OpenedAt > registration)
            {
                CloseWithError(connection, CloseReason.RegistrationTimeout, RouterErrorCodes.RegistrationTimeout, "Registration timeout",
                    $"register_client was not called within {registration} ms.");
            }
        }
    }

    private void CloseWithError(RouterConnection connection, CloseReason reason, int code, string message, string data)
    {
        Interlocked.Increment(ref Counters.Errors);
        ReplyWriter.Error(connection, null, default, code, message, data);
        connection.Close(reason);
    }
}
