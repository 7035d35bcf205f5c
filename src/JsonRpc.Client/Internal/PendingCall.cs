using System.Buffers;
using System.Numerics;
using System.Threading.Tasks.Sources;

namespace JsonRpc.Client.Internal;

/// <summary>
/// One slot of <see cref="PendingCallTable"/>: the awaitable state of a call in flight, reused call after call.
/// </summary>
/// <remarks>
/// Whoever swaps <see cref="_activeId"/> from the call's id to 0 first (the read loop with the answer, the
/// cancellation callback, the timeout scan, the connection-loss sweep) owns the outcome and completes it; everyone
/// else sees a different id and backs off. That compare-and-swap is the whole of the synchronization.
/// </remarks>
internal sealed class PendingCall : IValueTaskSource
{
    private const int KeepBufferSize = 4096;

    private ManualResetValueTaskSourceCore<bool> _core;
    private long _activeId;
    private long _uses;
    private byte[]? _buffer;
    private int _length;

    public PendingCall(int slot)
    {
        Slot = slot;
        _core.RunContinuationsAsynchronously = true;
    }

    /// <summary>The slot index in the table; the low bits of every id this call carries.</summary>
    public int Slot { get; }

    /// <summary>The id while in flight; 0 once claimed or free.</summary>
    public long ActiveId => Volatile.Read(ref _activeId);

    /// <summary>The id of the current (or last) use, still readable after the claim.</summary>
    public long Id { get; private set; }

    public string Method { get; private set; } = string.Empty;

    public object? Connection { get; private set; }

    /// <summary>Environment.TickCount64 after which the timeout scan fails the call; long.MaxValue for none.</summary>
    public long Deadline { get; private set; }

    public CallOutcome Outcome { get; private set; }

    public int ErrorCode { get; private set; }

    public string? ErrorMessage { get; private set; }

    public Exception? Failure { get; private set; }

    /// <summary>The result (for <see cref="CallOutcome.Result"/>) or the error data (for <see cref="CallOutcome.RemoteError"/>).</summary>
    public ReadOnlySpan<byte> Payload => _buffer is null ? default : _buffer.AsSpan(0, _length);

    public short Version => _core.Version;

    public ValueTask AsValueTask() => new(this, _core.Version);

    internal void Activate(string method, object? connection, long deadline)
    {
        // Only the renter touches _uses, so it needs no atomics; ids stay positive for 2^43 uses of one slot.
        _uses++;
        var id = (_uses << PendingCallTable.SlotBits) | (uint)Slot;
        Id = id;
        Method = method;
        Connection = connection;
        Deadline = deadline;
        Outcome = CallOutcome.Pending;
        Volatile.Write(ref _activeId, id); // publishes the fields above to readers of ActiveId
    }

    /// <summary>Claims the call for completion if it is still waiting for <paramref name="id"/>.</summary>
    public bool TryClaim(long id) => id != 0 && Interlocked.CompareExchange(ref _activeId, 0, id) == id;

    public void SetResult(ReadOnlySpan<byte> result)
    {
        CopyPayload(result);
        Outcome = CallOutcome.Result;
        _core.SetResult(true);
    }

    public void SetRemoteError(int code, string message, ReadOnlySpan<byte> data)
    {
        CopyPayload(data);
        ErrorCode = code;
        ErrorMessage = message;
        Outcome = CallOutcome.RemoteError;
        _core.SetResult(true);
    }

    public void SetFailure(CallOutcome outcome, Exception? failure)
    {
        _length = 0;
        Failure = failure;
        Outcome = outcome;
        _core.SetResult(true);
    }

    /// <summary>Makes the slot ready for its next use; only the caller that awaited the call does this.</summary>
    internal void Reset()
    {
        if (_buffer is { Length: > KeepBufferSize } big)
        {
            _buffer = null;
            ArrayPool<byte>.Shared.Return(big);
        }

        _length = 0;
        Connection = null;
        Failure = null;
        ErrorMessage = null;
        Method = string.Empty;
        _core.Reset();
    }

    private void CopyPayload(ReadOnlySpan<byte> bytes)
    {
        if (_buffer is null || _buffer.Length < bytes.Length)
        {
            if (_buffer is { Length: > KeepBufferSize } old)
            {
                ArrayPool<byte>.Shared.Return(old);
            }

            _buffer = bytes.Length <= KeepBufferSize
                ? new byte[Math.Max(256, (int)BitOperations.RoundUpToPowerOf2((uint)bytes.Length))]
                : ArrayPool<byte>.Shared.Rent(bytes.Length);
        }

        bytes.CopyTo(_buffer);
        _length = bytes.Length;
    }

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
