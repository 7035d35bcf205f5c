using System.Runtime.ExceptionServices;
using JsonRpc.Client.Internal;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    /// <summary>
    /// Sends <paramref name="items"/> as one JSON-RPC batch and waits for the answer to every call in it. The peer may
    /// answer in any order (a router spreads one batch over several providers); answers are matched by id.
    /// </summary>
    /// <param name="items">The calls and notifications, in order.</param>
    /// <param name="cancellationToken">
    /// Abandons the whole batch: every call not yet answered completes as canceled and the peer gets a
    /// <c>$/cancelRequest</c> for each; late answers are dropped.
    /// </param>
    /// <returns>One entry per item, in the items' order: a result, a <see cref="JsonRpcRemoteException"/>, or (for a notification) nothing.</returns>
    /// <exception cref="TimeoutException">Some call got no answer within <see cref="JsonRpcClientOptions.CallTimeout"/>.</exception>
    /// <exception cref="JsonRpcConnectionLostException">The connection was lost before every call was answered.</exception>
    public async Task<JsonRpcBatchResult[]> CallBatchAsync(IReadOnlyList<JsonRpcBatchItem> items, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(items);
        if (items.Count == 0)
        {
            throw new ArgumentException("A batch needs at least one item.", nameof(items));
        }

        cancellationToken.ThrowIfCancellationRequested();
        var connection = CurrentConnection() ?? await WaitForConnectionAsync(cancellationToken).ConfigureAwait(false);
        var calls = new PendingCall?[items.Count];
        var registrations = new CancellationTokenRegistration[items.Count];
        try
        {
            await SendBatchAsync(connection, items, calls, registrations, cancellationToken).ConfigureAwait(false);
            var results = new JsonRpcBatchResult[items.Count];
            Exception? failure = null;
            for (var i = 0; i < calls.Length; i++)
            {
                if (calls[i] is not { } call)
                {
                    results[i] = new JsonRpcBatchResult(default, null, isNotification: true);
                    continue;
                }

                await call.AsValueTask().ConfigureAwait(false);
                await registrations[i].DisposeAsync().ConfigureAwait(false);
                switch (call.Outcome)
                {
                    case CallOutcome.Result:
                        results[i] = new JsonRpcBatchResult(default(RawResult).Read(call), null, isNotification: false, _options.SerializerOptions);
                        break;
                    case CallOutcome.RemoteError:
                        results[i] = new JsonRpcBatchResult(default, CreateRemoteException(call), isNotification: false);
                        break;
                    default:
                        try
                        {
                            GetResult<bool, IgnoredResult>(call, default, cancellationToken);
                        }
                        catch (Exception ex)
                        {
                            failure ??= ex;
                        }

                        break;
                }
            }

            if (failure is not null)
            {
                ExceptionDispatchInfo.Throw(failure);
            }

            return results;
        }
        finally
        {
            foreach (var call in calls)
            {
                if (call is not null)
                {
                    _calls.Release(call);
                }
            }
        }
    }

    private async ValueTask SendBatchAsync(
        ClientConnection connection, IReadOnlyList<JsonRpcBatchItem> items, PendingCall?[] calls, CancellationTokenRegistration[] registrations, CancellationToken cancellationToken)
    {
        var buffer = MessageBuffer.Rent();
        try
        {
            var deadline = Deadline();
            buffer.GetSpan(1)[0] = (byte)'[';
            buffer.Advance(1);
            for (var i = 0; i < items.Count; i++)
            {
                if (i > 0)
                {
                    buffer.GetSpan(1)[0] = (byte)',';
                    buffer.Advance(1);
                }

                var item = items[i];
                ArgumentNullException.ThrowIfNull(item.Method, nameof(items));
                var id = 0L;
                if (!item.IsNotification)
                {
                    var call = _calls.Rent(item.Method, connection, deadline);
                    call.HandsOverPayload = RawResult.KeepsPayload; // each result is kept as RawJson
                    calls[i] = call;
                    id = call.Id;
                }

                MessageEncoder.WriteCall(buffer, id, item.Method, new RawParams(item.Params));
            }

            buffer.GetSpan(1)[0] = (byte)']';
            buffer.Advance(1);
            await connection.WriteAsync(buffer.WrittenMemory, cancellationToken).ConfigureAwait(false);

            // After the write, so that no $/cancelRequest overtakes the batch it names.
            if (cancellationToken.CanBeCanceled)
            {
                for (var i = 0; i < calls.Length; i++)
                {
                    if (calls[i] is { } call)
                    {
                        registrations[i] = cancellationToken.UnsafeRegister(CancelCall, call);
                    }
                }
            }

            if (connection.IsClosed)
            {
                FailAll(calls, CallOutcome.ConnectionLost, connection.CloseReason);
            }
        }
        catch (Exception ex)
        {
            FailAll(calls, ex is OperationCanceledException && cancellationToken.IsCancellationRequested ? CallOutcome.Canceled : CallOutcome.Failed, ex);
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }

    private static void FailAll(PendingCall?[] calls, CallOutcome outcome, Exception? reason)
    {
        foreach (var call in calls)
        {
            if (call is not null && call.TryClaim(call.Id))
            {
                call.SetFailure(outcome, reason);
            }
        }
    }
}
