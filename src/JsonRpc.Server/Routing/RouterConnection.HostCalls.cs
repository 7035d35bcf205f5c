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

        ServeHost(message, in info, method, idToken, batch);
        return true;
    }

    /// <summary>
    /// <c>$/enumerator/next</c> or <c>$/enumerator/abort</c> for an async enumerable a host method gave this
    /// connection (tokens come from the router's own sequence, so they never name a routed stream); false when this
    /// connection has none open, and the message is for the router's streams.
    /// </summary>
    private bool TryServeHostEnumerator(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        if (_serverScope is not { OpenEnumerators: > 0 })
        {
            return false;
        }

        ServeHost(message, in info, message[info.Method], idToken, batch);
        return true;
    }

    private void ServeHost(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, ReadOnlySpan<byte> method, ReadOnlySpan<byte> idToken, BatchReply? batch)
    {
        var isCall = info.Kind == JsonRpc.Protocol.JsonRpcMessageKind.Request;
        if (isCall && !TryBeginCall(batch, idToken))
        {
            return;
        }

        _router.HostCallStarted();
        batch?.Expect();
        var copy = ArrayPool<byte>.Shared.Rent(message.Length);
        message.CopyTo(copy);
        var output = new PooledBufferWriter();
        _hostCalls ??= CancellationTokenSource.CreateLinkedTokenSource(_router.StoppingToken);
        var token = _hostCalls.Token;
        var id = RequestId.None;

        // The connection's state for host methods: its calls by id, so that its $/cancelRequest fires the handler's
        // token; the enumerables it may pull; the way back to it for progress.
        var scope = _serverScope ??= new JsonRpcCancellationScope(token, new HostPeerChannel(this));
        if (isCall)
        {
            id = info.GetId(message);
            token = scope.Begin(id);
        }

        var state = new HostCall(this, copy, output, batch, isCall, id, token);
        try
        {
            var pending = _router.Methods.DispatchAsync(copy.AsMemory(0, message.Length), in info, output, token, scope);
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
    }

    /// <summary>
    /// Sends what host methods send this connection besides answers (progress), within its outbound bound: a message
    /// that would take its queue past the bound is dropped, not queued, and never closes the connection.
    /// </summary>
    private sealed class HostPeerChannel(RouterConnection connection) : JsonRpcPeerChannel
    {
        public override bool TrySend(ReadOnlySpan<byte> notification)
        {
            // Measured as the queue counts it (the pooled buffer, not the message), so that it is never refused there.
            var copy = ReplyWriter.Copy(notification);
            if (connection.IsClosing
                || connection._outbound.QueuedBytes + copy.Buffer.Length > connection._router.Options.MaxOutboundBufferSize)
            {
                copy.Return();
                Interlocked.Increment(ref connection._router.StreamCounters.ProgressDropped);
                return false;
            }

            return connection.Send(copy);
        }

        // The router's own sequence: a host enumerable's token never names one of the streams the router forwards.
        public override long NextEnumeratorToken() => connection._router.NextStreamToken();
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
