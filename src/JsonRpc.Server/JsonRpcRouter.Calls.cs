using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    private const int PoolSize = 16 * 1024;
    private readonly ObjectStack<PendingCall> _callPool = new(PoolSize);
    private readonly ObjectStack<BatchReply> _batchPool = new(1024);
    private readonly Lock _timeoutLock = new();
    private readonly Queue<TimeoutEntry> _timeouts = new();
    private long _nextRouterId;

    internal BatchReply BeginBatch(RouterConnection caller)
    {
        var batch = _batchPool.Rent();
        batch.Begin(caller, _batchPool);
        return batch;
    }

    internal PendingCall RentCall(RouterConnection caller, ReadOnlySpan<byte> callerId, BatchReply? batch)
    {
        var call = _callPool.Rent();
        call.Initialize(caller, callerId, batch, Interlocked.Increment(ref _nextRouterId));
        Interlocked.Increment(ref Counters.PendingCalls);
        return call;
    }

    /// <summary>Delivers the provider's answer to the caller under the caller's own id; nothing else changes.</summary>
    internal void CompleteCall(PendingCall call, ReadOnlySpan<byte> answer, Range idToken)
    {
        if (call.Batch is { } batch)
        {
            batch.CompleteSpliced(answer, idToken, call.CallerId);
        }
        else
        {
            call.Caller.Send(ReplyWriter.Splice(answer, idToken, call.CallerId));
        }

        Release(call);
    }

    /// <summary>Answers the caller with an error instead.</summary>
    internal void FailCall(PendingCall call, int code, string message, string? data = null)
    {
        Interlocked.Increment(ref Counters.Errors);
        ReplyWriter.Error(call.Caller, call.Batch, call.CallerId, code, message, data, announced: true);
        Release(call);
    }

    private void Release(PendingCall call)
    {
        call.Caller.CallFinished();
        Interlocked.Decrement(ref Counters.PendingCalls);
        call.Clear();
        _callPool.Return(call);
    }

    /// <summary>
    /// Remembers when the call must be answered by. Every call gets the same timeout, so deadlines arrive in order and
    /// a queue is enough: the timer pops from the front only.
    /// </summary>
    internal void TrackTimeout(long routerId, RouterConnection provider)
    {
        if (_callTimeoutMs <= 0)
        {
            return;
        }

        var entry = new TimeoutEntry(routerId, provider, Environment.TickCount64 + _callTimeoutMs);
        lock (_timeoutLock)
        {
            _timeouts.Enqueue(entry);
        }
    }

    private void SweepTimeouts(long now)
    {
        while (true)
        {
            TimeoutEntry entry;
            lock (_timeoutLock)
            {
                if (!_timeouts.TryPeek(out entry) || entry.Deadline > now)
                {
                    return;
                }

                _timeouts.Dequeue();
            }

            // Already answered calls are no longer in the table: nothing to do for them.
            if (entry.Provider.TryRemoveInFlight(entry.RouterId, out var call))
            {
                Interlocked.Increment(ref Counters.Timeouts);
                RouterLog.CallTimedOut(Logger, entry.RouterId, entry.Provider.Name);
                FailCall(call, RouterErrorCodes.CallTimeout, "Call timed out",
                    $"'{entry.Provider.Name}' did not answer within {_callTimeoutMs} ms.");
            }
        }
    }

    private readonly record struct TimeoutEntry(long RouterId, RouterConnection Provider, long Deadline);
}
