namespace JsonRpc.Client.Internal;

/// <summary>
/// The calls in flight, matched to their answers by id without a lock: each call lives in a slot, and its id is
/// <c>(use &lt;&lt; SlotBits) | slot</c>, so an answer's id leads straight to the slot, and the use count tells a late
/// answer for an earlier use of the slot from the answer the current use waits for.
/// </summary>
/// <remarks>
/// Free slots form a lock-free stack (a tagged head against ABA) threaded through <see cref="Chunk.Next"/>. Chunks of
/// slots are added under a lock only when every slot is busy, and never removed, so readers need no lock either.
/// In the steady state renting, matching and releasing allocate nothing.
/// </remarks>
internal sealed class PendingCallTable
{
    public const int SlotBits = 20;
    public const int MaxSlots = 1 << SlotBits;
    private const int ChunkBits = 8;
    private const int ChunkSize = 1 << ChunkBits;
    private const long SlotMask = MaxSlots - 1;

    private readonly Chunk?[] _chunks = new Chunk?[MaxSlots / ChunkSize];
    private readonly Lock _growLock = new();
    private int _chunkCount;

    // Low 32 bits: top slot + 1 (0 = empty); high 32 bits: a tag bumped on every change.
    private long _freeHead;

    /// <summary>Takes a free slot and starts a call in it.</summary>
    /// <exception cref="InvalidOperationException">More than <see cref="MaxSlots"/> calls are in flight.</exception>
    public PendingCall Rent(string method, object? connection, long deadline)
    {
        var slot = Pop();
        if (slot < 0)
        {
            slot = Grow();
        }

        var chunk = _chunks[slot >> ChunkBits]!;
        var call = chunk.Calls[slot & (ChunkSize - 1)];
        if (call is null)
        {
            // Only the renter of a free slot touches it, so the lazy creation does not race.
            call = new PendingCall(slot);
            Volatile.Write(ref chunk.Calls[slot & (ChunkSize - 1)], call);
        }

        call.Activate(method, connection, deadline);
        return call;
    }

    /// <summary>Finds the call waiting for <paramref name="id"/> and claims it; false for unknown or late answers.</summary>
    public bool TryClaim(long id, out PendingCall call)
    {
        call = null!;
        if (id <= 0)
        {
            return false;
        }

        var slot = (int)(id & SlotMask);
        var chunk = Volatile.Read(ref _chunks[slot >> ChunkBits]);
        var found = chunk is null ? null : Volatile.Read(ref chunk.Calls[slot & (ChunkSize - 1)]);
        if (found is null || !found.TryClaim(id))
        {
            return false;
        }

        call = found;
        return true;
    }

    /// <summary>Returns a completed call's slot; called once, by the caller that awaited it.</summary>
    public void Release(PendingCall call)
    {
        call.Reset();
        Push(call.Slot);
    }

    /// <summary>Claims every call in flight on <paramref name="connection"/> (any connection when null) and hands it to <paramref name="fail"/>.</summary>
    public int ClaimAll<TState>(object? connection, Action<PendingCall, TState> fail, TState state)
        => Claim(connection, expiredBefore: null, fail, state);

    /// <summary>Claims every call whose deadline is before <paramref name="now"/> and hands it to <paramref name="fail"/>.</summary>
    public void ClaimExpired<TState>(long now, Action<PendingCall, TState> fail, TState state)
        => Claim(connection: null, expiredBefore: now, fail, state);

    /// <summary>
    /// Claims the calls in flight on <paramref name="connection"/> (any when null) and, when <paramref name="expiredBefore"/>
    /// is given, only those whose deadline has passed; hands each to <paramref name="fail"/> and returns how many.
    /// </summary>
    private int Claim<TState>(object? connection, long? expiredBefore, Action<PendingCall, TState> fail, TState state)
    {
        var count = 0;
        var chunks = Volatile.Read(ref _chunkCount);
        for (var c = 0; c < chunks; c++)
        {
            var chunk = Volatile.Read(ref _chunks[c]);
            if (chunk is null)
            {
                continue;
            }

            foreach (var call in chunk.Calls)
            {
                if (call is null)
                {
                    continue;
                }

                var id = call.ActiveId;
                if (id != 0
                    && (connection is null || ReferenceEquals(call.Connection, connection))
                    && (expiredBefore is not { } now || (call.Deadline <= now && call.Id == id))
                    && call.TryClaim(id))
                {
                    fail(call, state);
                    count++;
                }
            }
        }

        return count;
    }

    private int Pop()
    {
        var spinner = default(SpinWait);
        while (true)
        {
            var head = Volatile.Read(ref _freeHead);
            var top = (int)(uint)head - 1;
            if (top < 0)
            {
                return -1;
            }

            var next = Volatile.Read(ref _chunks[top >> ChunkBits]!.Next[top & (ChunkSize - 1)]);
            var newHead = (((head >>> 32) + 1) << 32) | (uint)next;
            if (Interlocked.CompareExchange(ref _freeHead, newHead, head) == head)
            {
                return top;
            }

            spinner.SpinOnce(sleep1Threshold: -1);
        }
    }

    private void Push(int slot) => PushChain(slot, slot);

    /// <summary>Pushes the chain first..last (already linked through Next) onto the free stack.</summary>
    private void PushChain(int first, int last)
    {
        var spinner = default(SpinWait);
        ref var lastNext = ref _chunks[last >> ChunkBits]!.Next[last & (ChunkSize - 1)];
        while (true)
        {
            var head = Volatile.Read(ref _freeHead);
            Volatile.Write(ref lastNext, (int)(uint)head);
            var newHead = (((head >>> 32) + 1) << 32) | (uint)(first + 1);
            if (Interlocked.CompareExchange(ref _freeHead, newHead, head) == head)
            {
                return;
            }

            spinner.SpinOnce(sleep1Threshold: -1);
        }
    }

    /// <summary>Adds a chunk, keeps its first slot for the caller and frees the rest.</summary>
    private int Grow()
    {
        lock (_growLock)
        {
            // Another thread may have grown (or calls completed) while this one waited for the lock.
            var slot = Pop();
            if (slot >= 0)
            {
                return slot;
            }

            var index = _chunkCount;
            if (index == _chunks.Length)
            {
                ThrowTooManyCalls();
            }

            var chunk = new Chunk();
            var first = index << ChunkBits;
            for (var i = 1; i < ChunkSize - 1; i++)
            {
                chunk.Next[i] = first + i + 2; // slot + 1 of the next one
            }

            Volatile.Write(ref _chunks[index], chunk);
            Volatile.Write(ref _chunkCount, index + 1);
            PushChain(first + 1, first + ChunkSize - 1);
            return first;
        }
    }

    private static void ThrowTooManyCalls()
        => throw new InvalidOperationException($"More than {MaxSlots} calls are in flight on one client.");

    private sealed class Chunk
    {
        public readonly PendingCall?[] Calls = new PendingCall?[ChunkSize];

        /// <summary>For a free slot: the next free slot + 1 (0 ends the stack).</summary>
        public readonly int[] Next = new int[ChunkSize];
    }
}
