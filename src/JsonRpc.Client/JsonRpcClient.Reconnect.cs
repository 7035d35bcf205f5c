using JsonRpc.Client.Internal;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    // What the reconnect loop has tried since the connection was lost, for the messages of calls that wait or fail meanwhile.
    private volatile Exception? _lastReconnectError;
    private int _reconnectAttempts;

    /// <summary>
    /// Reopens the connection with back-off until it succeeds, the attempts run out, or the client is disposed. A new
    /// connection becomes current only once the registration, the methods and the subscriptions are restored on it.
    /// </summary>
    private async Task ReconnectAsync(Exception reason)
    {
        var maxAttempts = _options.Reconnect.MaxAttempts;
        for (var attempt = 0; ; attempt++)
        {
            if (attempt >= maxAttempts)
            {
                GiveUp(attempt, reason);
                return;
            }

            var delay = _options.Reconnect.GetDelay(attempt);
            Log.ReconnectScheduled(_logger, attempt + 1, EndPoint, delay);
            ClientConnection? connection = null;
            try
            {
                await Task.Delay(delay, _disposing.Token).ConfigureAwait(false);
                connection = await OpenAsync(_disposing.Token).ConfigureAwait(false);
                var (methods, events) = await RestoreAsync(connection, _disposing.Token).ConfigureAwait(false);
                if (SetConnected(connection))
                {
                    _lastReconnectError = null;
                    Volatile.Write(ref _reconnectAttempts, 0);
                    Log.Reconnected(_logger, EndPoint, methods, events);
                    return;
                }

                reason = connection.CloseReason ?? new JsonRpcConnectionLostException("The new connection closed at once.");
            }
            catch (Exception ex) when (!_disposing.IsCancellationRequested)
            {
                Log.ReconnectFailed(_logger, attempt + 1, EndPoint, ex);
                reason = ex;
                _lastReconnectError = ex;
                Volatile.Write(ref _reconnectAttempts, attempt + 1);
            }
            catch (Exception) when (_disposing.IsCancellationRequested)
            {
                if (connection is not null)
                {
                    await connection.DisposeAsync().ConfigureAwait(false);
                }

                return;
            }

            if (connection is not null)
            {
                await connection.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private void GiveUp(int attempts, Exception reason)
    {
        JsonRpcClientState old;
        lock (_stateLock)
        {
            if (_state != JsonRpcClientState.Reconnecting)
            {
                return;
            }

            old = _state;
            _state = JsonRpcClientState.Disconnected;
            _connected.TrySetException(new JsonRpcConnectionLostException(
                $"The connection to {EndPoint} was lost and {attempts} reconnect attempts failed.", reason));
            _ = _connected.Task.Exception;
        }

        Log.ReconnectGaveUp(_logger, EndPoint, attempts);
        RaiseStateChanged(old, JsonRpcClientState.Disconnected, reason);
    }
}
