using System.Buffers;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    void IConnectionOwner.OnMessage(ClientConnection connection, in ReadOnlySequence<byte> message)
    {
        if (message.IsSingleSegment)
        {
            Process(connection, message.FirstSpan);
            return;
        }

        var length = checked((int)message.Length);
        var rented = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            message.CopyTo(rented);
            Process(connection, rented.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Handles one message on the read loop: answers complete their calls here; calls to us go to the thread pool.</summary>
    private void Process(ClientConnection connection, ReadOnlySpan<byte> message)
    {
        try
        {
            if (!JsonRpcMessageReader.TryRead(message, out var info, out var error))
            {
                OnInvalidMessage(connection, message, info, error);
                return;
            }

            switch (info.Kind)
            {
                case JsonRpcMessageKind.Response:
                case JsonRpcMessageKind.Error:
                    CompleteCall(connection, message, info);
                    break;
                case JsonRpcMessageKind.Request:
                case JsonRpcMessageKind.Notification:
                    OnIncomingCall(connection, message, info);
                    break;
                case JsonRpcMessageKind.Batch:
                    // Each element on its own: a batch of answers (to CallBatchAsync) completes call by call.
                    foreach (var element in JsonRpcMessageReader.EnumerateBatch(message))
                    {
                        Process(connection, message[element]);
                    }

                    break;
            }
        }
        catch (Exception ex)
        {
            // Nothing a peer sends may stop the read loop.
            Log.ProcessingFailed(_logger, connection.EndPoint, ex);
        }
    }

    private void CompleteCall(ClientConnection connection, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (!info.TryGetInt64Id(out var id) || !_calls.TryClaim(id, out var call))
        {
            if (info.IdKind == RequestIdKind.Null && info.Kind == JsonRpcMessageKind.Error)
            {
                Log.ErrorWithoutId(_logger, connection.EndPoint, info.ErrorCode, info.GetErrorMessage(message));
            }
            else
            {
                Interlocked.Increment(ref _droppedAnswers);
                Log.AnswerDropped(_logger, info.GetId(message).ToString());
            }

            return;
        }

        if (info.Kind == JsonRpcMessageKind.Response)
        {
            call.SetResult(message[info.Result], connection);
        }
        else
        {
            call.SetRemoteError(info.ErrorCode, info.GetErrorMessage(message), info.HasErrorData ? message[info.ErrorData] : default, connection);
        }
    }

    private void OnInvalidMessage(ClientConnection connection, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, in JsonRpcReadError error)
    {
        Log.InvalidMessage(_logger, connection.EndPoint, error.Code, error.Detail);
        if (!info.HasMethod && info.TryGetInt64Id(out var id) && _calls.TryClaim(id, out var call))
        {
            // A malformed answer to one of our calls: fail that call now rather than at its timeout.
            call.SetFailure(CallOutcome.Failed, error.ToException(new RequestId(id)));
            return;
        }

        if (info.HasMethod || info.IdKind == RequestIdKind.None)
        {
            // Answer as a server would: with the id when it could be read, else null.
            var idToken = info.IdKind == RequestIdKind.None ? default : message[info.IdToken];
            SendError(connection, idToken, error.Code, error.Message);
        }
    }

    /// <summary>
    /// Queues an error answer; a write that fails means the connection is going, which is handled elsewhere. Best effort:
    /// when the peer is not reading what it is sent, the answer is dropped and logged rather than held in memory.
    /// </summary>
    private void SendError(ClientConnection connection, ReadOnlySpan<byte> idToken, int code, string message)
    {
        if (connection.IsBackedUp)
        {
            Log.ErrorReplyDropped(_logger, connection.EndPoint, code);
            return;
        }

        var buffer = MessageBuffer.Rent();
        MessageEncoder.WriteError(buffer, idToken, code, message);
        _ = ReturnWhenWrittenAsync(connection.WriteAsync(buffer.WrittenMemory, CancellationToken.None), buffer);
    }

    private static async Task ReturnWhenWrittenAsync(ValueTask pending, MessageBuffer buffer)
    {
        try
        {
            await pending.ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is JsonRpcConnectionLostException or OperationCanceledException or TimeoutException)
        {
            // The connection closed, or the peer stopped reading: nothing to answer on.
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }
}
