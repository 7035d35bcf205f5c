using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Text.Json;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    // The caller's token: the call completes as canceled at once, and the peer is told with $/cancelRequest so that its
    // handler can stop (its late answer is dropped). Registered only once the request is written, so the cancellation
    // never overtakes the call it names.
    private static readonly Action<object?, CancellationToken> CancelCall = static (state, _) =>
    {
        var call = (PendingCall)state!;
        var id = call.Id;
        var connection = call.Connection as ClientConnection;
        if (call.TryClaim(id))
        {
            call.SetFailure(CallOutcome.Canceled, null);
            if (connection is not null)
            {
                SendCancelRequest(connection, id);
            }
        }
    };

    /// <summary>Sends <c>$/cancelRequest {"id": id}</c>; best effort, as a connection that is going cancels everything anyway.</summary>
    private static void SendCancelRequest(ClientConnection connection, long id)
    {
        if (connection.IsClosed)
        {
            return;
        }

        var buffer = MessageBuffer.Rent();
        MessageEncoder.WriteCall(buffer, 0, JsonRpcProtocolMethods.CancelRequest, new CancelParams(id));
        _ = ReturnWhenWrittenAsync(connection.WriteAsync(buffer.WrittenMemory, CancellationToken.None), buffer);
    }

    /// <summary>
    /// The one path every call takes: rent a slot, write the request, wait for whoever completes the slot (the answer,
    /// the caller's token, the timeout scan, the connection-loss sweep), turn the outcome into a result or an exception.
    /// With <paramref name="connection"/> null it uses (or waits for) the current connection.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<TResult> InvokeCoreAsync<TParams, TResult, TReader>(
        ClientConnection? connection, string method, TParams @params, TReader reader, CancellationToken cancellationToken)
        where TParams : struct, IParamsSource
        where TReader : struct, IResultReader<TResult>
    {
        ArgumentNullException.ThrowIfNull(method);
        cancellationToken.ThrowIfCancellationRequested();
        connection ??= CurrentConnection() ?? await WaitForConnectionAsync(cancellationToken).ConfigureAwait(false);
        var call = _calls.Rent(method, connection, Deadline());
        call.HandsOverPayload = TReader.KeepsPayload;
        var registration = default(CancellationTokenRegistration);
        using var activity = ClientTracing.IsEnabled ? ClientTracing.Start(method, call.Id) : null;
        try
        {
            var buffer = MessageBuffer.Rent();
            try
            {
                MessageEncoder.WriteCall(buffer, call.Id, method, @params, activity ?? Activity.Current);
                await connection.WriteAsync(buffer.WrittenMemory, cancellationToken).ConfigureAwait(false);
                if (cancellationToken.CanBeCanceled)
                {
                    registration = cancellationToken.UnsafeRegister(CancelCall, call);
                }
            }
            finally
            {
                MessageBuffer.Return(buffer);
            }

            // The loss sweep may have run before this call was written: then nobody else will complete it.
            if (connection.IsClosed && call.TryClaim(call.Id))
            {
                call.SetFailure(CallOutcome.ConnectionLost, connection.CloseReason);
            }
        }
        catch (Exception ex)
        {
            if (call.TryClaim(call.Id))
            {
                call.SetFailure(ex is OperationCanceledException && cancellationToken.IsCancellationRequested ? CallOutcome.Canceled : CallOutcome.Failed, ex);
            }
        }

        try
        {
            await call.AsValueTask().ConfigureAwait(false);
            await registration.DisposeAsync().ConfigureAwait(false);
            if (activity is not null)
            {
                ClientTracing.Ended(activity, call);
            }

            return GetResult<TResult, TReader>(call, reader, cancellationToken);
        }
        finally
        {
            _calls.Release(call);
        }
    }

    /// <summary>Sends a notification on the current connection (waiting for one while reconnecting).</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask NotifyCoreAsync<TParams>(string method, TParams @params, CancellationToken cancellationToken)
        where TParams : struct, IParamsSource
    {
        ArgumentNullException.ThrowIfNull(method);
        cancellationToken.ThrowIfCancellationRequested();
        var connection = CurrentConnection() ?? await WaitForConnectionAsync(cancellationToken).ConfigureAwait(false);
        using var activity = ClientTracing.IsEnabled ? ClientTracing.Start(method, 0) : null;
        var buffer = MessageBuffer.Rent();
        try
        {
            MessageEncoder.WriteCall(buffer, 0, method, @params, activity ?? Activity.Current);
            await connection.WriteAsync(buffer.WrittenMemory, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }

    private TResult GetResult<TResult, TReader>(PendingCall call, TReader reader, CancellationToken cancellationToken)
        where TReader : struct, IResultReader<TResult>
    {
        switch (call.Outcome)
        {
            case CallOutcome.Result:
                try
                {
                    return reader.Read(call);
                }
                catch (JsonException ex)
                {
                    // System.Text.Json names the type and the path, not the call the result came from.
                    throw new JsonException($"The result of '{call.Method}' could not be read as {typeof(TResult).Name}: {ex.Message}", ex.Path, ex.LineNumber, ex.BytePositionInLine, ex);
                }
            case CallOutcome.RemoteError:
                throw CreateRemoteException(call);
            case CallOutcome.Canceled:
                throw new OperationCanceledException($"The call '{call.Method}' was canceled.", call.Failure, cancellationToken);
            case CallOutcome.TimedOut:
                throw new TimeoutException($"The call '{call.Method}' got no answer within {_options.CallTimeout}.");
            case CallOutcome.ConnectionLost:
                throw new JsonRpcConnectionLostException($"The connection to {EndPoint} was lost before '{call.Method}' was answered.", call.Failure);
            default:
                ExceptionDispatchInfo.Throw(call.Failure!);
                throw null!;
        }
    }

    private static JsonRpcRemoteException CreateRemoteException(PendingCall call)
    {
        var data = call.Payload;
        return new JsonRpcRemoteException(
            call.ErrorCode, call.ErrorMessage ?? string.Empty, data.IsEmpty ? default : RawJson.FromUtf8(data.ToArray()), call.Method);
    }

    private long Deadline() => _callTimeoutMs < 0 ? long.MaxValue : Environment.TickCount64 + _callTimeoutMs;

    /// <summary>The current connection while connected; null otherwise (the caller then waits).</summary>
    private ClientConnection? CurrentConnection() => Volatile.Read(ref _connection) is { IsClosed: false } connection ? connection : null;

    private async ValueTask<ClientConnection> WaitForConnectionAsync(CancellationToken cancellationToken)
    {
        var timeout = _options.CallTimeout;
        while (true)
        {
            Task<ClientConnection> connected;
            lock (_stateLock)
            {
                switch (_state)
                {
                    case JsonRpcClientState.Disposed:
                        throw new ObjectDisposedException(nameof(JsonRpcClient));
                    case JsonRpcClientState.Connected when _connection is { IsClosed: false } current:
                        return current;
                }

                if (_state == JsonRpcClientState.Reconnecting && !_options.Reconnect.WaitWhileReconnecting)
                {
                    throw new JsonRpcConnectionLostException(
                        $"The connection to {EndPoint} is lost and the client is reconnecting{ReconnectProgress()}; calls fail at once meanwhile (Reconnect.WaitWhileReconnecting is false).",
                        _lastReconnectError);
                }

                connected = _connected.Task;
            }

            try
            {
                var connection = await connected.WaitAsync(timeout, cancellationToken).ConfigureAwait(false);
                if (!connection.IsClosed)
                {
                    return connection;
                }
            }
            catch (TimeoutException)
            {
                var reconnecting = State == JsonRpcClientState.Reconnecting;
                throw new TimeoutException(reconnecting
                    ? $"No connection to {EndPoint} within {timeout}: the connection was lost and the client is still reconnecting{ReconnectProgress()}."
                    : $"No connection to {EndPoint} within {timeout}.", _lastReconnectError);
            }
            catch (ObjectDisposedException)
            {
                throw new ObjectDisposedException(nameof(JsonRpcClient));
            }
            catch (JsonRpcConnectionLostException ex)
            {
                // A fresh instance per caller: the stored one is shared.
                throw new JsonRpcConnectionLostException(ex.Message, ex.InnerException);
            }

            // Connected to one that closed meanwhile: wait for the next.
            await Task.Yield();
        }
    }

    /// <summary>" (3 attempts so far, the last: Connection refused)", or nothing before the first attempt has failed.</summary>
    private string ReconnectProgress()
        => Volatile.Read(ref _reconnectAttempts) is var attempts and > 0 && _lastReconnectError is { } error
            ? $" ({attempts} attempt{(attempts == 1 ? "" : "s")} so far, the last: {error.Message})"
            : "";
}
