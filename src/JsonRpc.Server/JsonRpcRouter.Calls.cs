using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    private const int PoolSize = 16 * 1024;
    private readonly ObjectStack<RoutedCall> _callPool = new(PoolSize);
    private readonly ObjectStack<BatchReply> _batchPool = new(1024);
    private readonly List<RoutedCall> _expired = [];
    private long _nextRouterId;

    private long _lastMemoryLog;
    private long _memoryRefusals;

    /// <summary>Counts a call refused near the memory budget; logs it at most once a second, with how many since.</summary>
    internal void MemoryRefused(string connectionId)
    {
        var count = Interlocked.Increment(ref _memoryRefusals);
        var now = Environment.TickCount64;
        var last = Volatile.Read(ref _lastMemoryLog);
        if (now - last >= 1000 && Interlocked.CompareExchange(ref _lastMemoryLog, now, last) == last)
        {
            RouterLog.MemoryBudgetReached(Logger, connectionId, Memory.Held, Memory.Max, count);
        }
    }

    /// <summary>Calls refused near the memory budget since the router started.</summary>
    internal long MemoryRefusals => Volatile.Read(ref _memoryRefusals);

    internal BatchReply BeginBatch(RouterConnection caller)
    {
        var batch = _batchPool.Rent();
        batch.Begin(caller, _batchPool, Options.MaxOutboundBufferSize);
        return batch;
    }

    /// <summary>
    /// A call of <paramref name="caller"/> about to be routed to <paramref name="provider"/>, already in the caller's list
    /// of pending calls (so that whatever completes it, even at once, finds it there).
    /// </summary>
    internal RoutedCall RentCall(RouterConnection caller, RouterConnection provider, ReadOnlySpan<byte> callerId, BatchReply? batch)
    {
        var call = _callPool.Rent();
        call.Initialize(caller, provider, callerId, batch, Interlocked.Increment(ref _nextRouterId));
        call.Deadline = _callTimeoutMs > 0 ? Environment.TickCount64 + _callTimeoutMs : long.MaxValue;
        Interlocked.Increment(ref Counters.PendingCalls);
        caller.TrackCall(call);
        return call;
    }

    /// <summary>Delivers the provider's answer to the caller under the caller's own id; nothing else changes.</summary>
    internal void CompleteCall(RoutedCall call, ReadOnlySpan<byte> answer, Range idToken)
    {
        if (call.Batch is { } batch)
        {
            batch.CompleteSpliced(answer, idToken, call.CallerId);
        }
        else
        {
            call.Caller.Send(ReplyWriter.Splice(answer, idToken, call.CallerId), owed: true);
        }

        if (call.Activity is { } activity)
        {
            RouterTracing.Answered(activity, answer);
        }

        Release(call);
    }

    /// <summary>Answers the caller with an error instead.</summary>
    internal void FailCall(RoutedCall call, int code, string message, string? data = null)
    {
        if (call.ReadAhead && TryKeepReadAheadFailure(call, code, message, data))
        {
            return; // the router's own pull: its consumer's next pull gets the error
        }

        Interlocked.Increment(ref Counters.Errors);
        ReplyWriter.Error(call.Caller, call.Batch, call.CallerId, code, message, data, announced: true);
        if (call.Activity is { } activity)
        {
            RouterTracing.Failed(activity, code, message);
        }

        Release(call);
    }

    // The one place a call ends: out of the caller's list before it can be reused.
    private void Release(RoutedCall call)
    {
        if (call.Pull is not null || call.ArgumentStreams is not null)
        {
            CallStreamsEnded(call);
        }

        call.Caller.ForgetCall(call);
        call.Caller.CallFinished();
        Interlocked.Decrement(ref Counters.PendingCalls);
        call.Clear();
        _callPool.Return(call);
    }

    /// <summary>Fails every routed call whose provider has not answered by its deadline. Runs on the timer only.</summary>
    private void SweepTimeouts(long now)
    {
        if (_callTimeoutMs <= 0 || Volatile.Read(ref Counters.PendingCalls) == 0)
        {
            return;
        }

        foreach (var provider in _connections.Keys)
        {
            provider.TakeExpired(now, _expired);
            foreach (var call in _expired)
            {
                Interlocked.Increment(ref Counters.Timeouts);
                RouterLog.CallTimedOut(Logger, call.RouterId, provider.Name);
                var routerId = call.RouterId;
                FailCall(call, RouterErrorCodes.CallTimeout, "Call timed out",
                    $"'{provider.Name}' did not answer within {_callTimeoutMs} ms.");

                // The provider may still be working on it: tell it to stop (a late answer is dropped either way).
                provider.SendCancel(routerId);
                Interlocked.Increment(ref Counters.CancelsForwarded);
            }

            _expired.Clear();
        }
    }
}
