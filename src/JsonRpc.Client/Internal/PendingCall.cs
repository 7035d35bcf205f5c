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
internal sealed class PendingCall : IValueTaskSource, IThreadPoolWorkItem
{
    private const int KeepBufferSize = 4096;

    private ManualResetValueTaskSourceCore<bool> _core;
    private long _activeId;
    private long _uses;
    private byte[]? _buffer;
    private byte[]? _handOver;
    private int _length;

    public PendingCall(int slot)
    {
        Slot = slot;
        // Completions are queued to the thread pool by Complete (this is the work item), where the continuation then
        // runs inline: never on the thread that completes the call (a read loop, a cancellation callback).
        _core.RunContinuationsAsynchronously = false;
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
    public ReadOnlySpan<byte> Payload => _handOver ?? (_buffer is null ? default : _buffer.AsSpan(0, _length));

    /// <summary>
    /// Set by a caller that keeps the result as it is (RawJson) before its request is written: a large result is then
    /// copied once, into an array of its own that <see cref="TakePayload"/> hands over, not into this slot's buffer and
    /// again into the caller's.
    /// </summary>
    public bool HandsOverPayload { get; set; }

    /// <summary>The payload as an array the caller may keep: the one made for it, or a copy.</summary>
    public byte[] TakePayload()
    {
        if (_handOver is { } owned)
        {
            _handOver = null;
            return owned;
        }

        return Payload.ToArray();
    }

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

    /// <summary>
    /// The answer, read by <paramref name="connection"/>'s read loop: the caller resumes with the rest of that read's
    /// work (see <see cref="ClientConnection.Defer"/>).
    /// </summary>
    public void SetResult(ReadOnlySpan<byte> result, ClientConnection? connection)
    {
        CopyPayload(result);
        Outcome = CallOutcome.Result;
        Complete(connection);
    }

    /// <inheritdoc cref="SetResult"/>
    public void SetRemoteError(int code, string message, ReadOnlySpan<byte> data, ClientConnection? connection)
    {
        CopyPayload(data);
        ErrorCode = code;
        ErrorMessage = message;
        Outcome = CallOutcome.RemoteError;
        Complete(connection);
    }

    public void SetFailure(CallOutcome outcome, Exception? failure)
    {
        _length = 0;
        Failure = failure;
        Outcome = outcome;
        Complete(null);
    }

    /// <summary>
    /// Queues the completion: the awaiting caller goes on on a pool thread (<see cref="Execute"/>), with the rest of
    /// the read's work when <paramref name="connection"/>'s read loop completes it (<see cref="ClientConnection.Defer"/>).
    /// </summary>
    private void Complete(ClientConnection? connection)
    {
        if (connection is null)
        {
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: true);
        }
        else
        {
            connection.Defer(this);
        }
    }

    /// <summary>Completes the call, which runs the caller's continuation here up to its next await (typically its next call).</summary>
    public void Execute() => _core.SetResult(true);

    /// <summary>Makes the slot ready for its next use; only the caller that awaited the call does this.</summary>
    internal void Reset()
    {
        if (_buffer is { Length: > KeepBufferSize } big)
        {
            _buffer = null;
            ArrayPool<byte>.Shared.Return(big);
        }

        _length = 0;
        _handOver = null;
        HandsOverPayload = false;
        Connection = null;
        Failure = null;
        ErrorMessage = null;
        Method = string.Empty;
        _core.Reset();
    }

    private void CopyPayload(ReadOnlySpan<byte> bytes)
    {
        if (HandsOverPayload && bytes.Length > KeepBufferSize)
        {
            // Every byte is written below: no need to zero it first (a large array would be, on the large object heap).
            _handOver = GC.AllocateUninitializedArray<byte>(bytes.Length);
            bytes.CopyTo(_handOver);
            _length = bytes.Length;
            return;
        }

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
