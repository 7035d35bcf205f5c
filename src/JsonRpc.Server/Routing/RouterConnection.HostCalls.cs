using System.Buffers;
using JsonRpc.Buffers;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    private CancellationTokenSource? _hostCalls;

    /// <summary>
    /// Serves a call or notification with one of the host's methods, if <paramref name="method"/> is one. The message
    /// is copied, as the handler may outlive the read buffer; a handler that completes at once is answered at once.
    /// </summary>
    private bool TryServe(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        if (!_router.IsHostMethod(method))
        {
            return false;
        }

        var isCall = info.Kind == JsonRpc.Protocol.JsonRpcMessageKind.Request;
        if (isCall && !TryBeginCall(batch, idToken))
        {
            return true;
        }

        _router.HostCallStarted();
        batch?.Expect();
        var copy = ArrayPool<byte>.Shared.Rent(message.Length);
        message.CopyTo(copy);
        var output = new PooledBufferWriter();
        _hostCalls ??= CancellationTokenSource.CreateLinkedTokenSource(_router.StoppingToken);
        var token = _hostCalls.Token;
        var id = RequestId.None;
        if (isCall)
        {
            // Tracked by the caller's id, so that its $/cancelRequest fires the handler's token.
            _serverScope ??= new JsonRpcCancellationScope(token);
            id = info.GetId(message);
            token = _serverScope.Begin(id);
        }

        var state = new HostCall(this, copy, output, batch, isCall, id, token);
        try
        {
            var pending = _router.Methods.DispatchAsync(copy.AsMemory(0, message.Length), in info, output, token);
            if (pending.IsCompletedSuccessfully)
            {
                state.Finish(pending.Result);
            }
            else
            {
                _ = state.AwaitAsync(pending);
            }
        }
        catch (Exception ex)
        {
            RouterLog.HostMethodFailed(_logger, System.Text.Encoding.UTF8.GetString(method), ex);
            state.Fail(idToken);
        }

        return true;
    }

    private void CancelHostCalls()
    {
        _serverScope?.CancelAll();
        if (_hostCalls is { } calls)
        {
            calls.Cancel();
            calls.Dispose();
        }
    }

    /// <summary>One host-method call in progress: its copy of the message, its output, where the answer goes.</summary>
    private sealed class HostCall(
        RouterConnection caller, byte[] message, PooledBufferWriter output, BatchReply? batch, bool isCall, RequestId id, CancellationToken token)
    {
        public async Task AwaitAsync(ValueTask<bool> pending)
        {
            bool answered;
            try
            {
                answered = await pending.ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                RouterLog.HostMethodFailed(caller._logger, "(async)", ex);
                output.Reset();
                answered = false;
            }

            Finish(answered);
        }

        public void Finish(bool answered)
        {
            ArrayPool<byte>.Shared.Return(message);
            if (answered && output.WrittenCount > 0)
            {
                if (batch is null)
                {
                    caller.Send(ReplyWriter.TakeRightSized(output));
                    output.Reset();
                }
                else
                {
                    batch.Complete(output.WrittenSpan);
                    output.Reset();
                }
            }
            else
            {
                output.Reset();
                batch?.End();
            }

            End();
        }

        public void Fail(ReadOnlySpan<byte> idToken)
        {
            ArrayPool<byte>.Shared.Return(message);
            output.Reset();
            if (isCall)
            {
                Interlocked.Increment(ref caller._router.Counters.Errors);
                ReplyWriter.Error(caller, batch, idToken, JsonRpc.Protocol.JsonRpcErrorCodes.InternalError, "Internal error", null, announced: true);
            }
            else
            {
                batch?.End();
            }

            End();
        }

        private void End()
        {
            if (isCall)
            {
                caller._serverScope!.End(id, token);
                caller.CallFinished();
            }

            caller._router.HostCallEnded();
        }
    }
}
