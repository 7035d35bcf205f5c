using System.Buffers;
using System.Collections.Concurrent;
using Microsoft.AspNetCore.Connections;

namespace JsonRpc.Server.Transport;

/// <summary>
/// A memory pool of large pinned blocks for Kestrel's socket transport. Kestrel's own pool hands out 4 KB blocks and
/// the socket transport receives into one block at a time, so a 100 KB message costs some 25 <c>recv</c> calls (and
/// about as many zero-byte ones that wait for data); with blocks larger than the message, one receive can take all of
/// it. The pipes ask for 4 KB and take what the pool gives (at least that much), so nothing else changes: a
/// connection holds a block only while bytes wait in its pipes (Kestrel waits for data before taking a buffer, so an
/// idle connection holds none), and its limits (the pipes' thresholds, the router's own) are the same. Returned
/// blocks are kept for reuse up to <c>retained</c> blocks; beyond that they are left to the GC.
/// </summary>
internal sealed class LargeBlockMemoryPool : MemoryPool<byte>
{
    private readonly ConcurrentQueue<Block> _free = new();
    private readonly int _blockSize;
    private readonly int _retained;
    private int _freeCount;

    public LargeBlockMemoryPool(int blockSize, int retained)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(blockSize, 4096);
        ArgumentOutOfRangeException.ThrowIfNegative(retained);
        _blockSize = blockSize;
        _retained = retained;
    }

    public override int MaxBufferSize => _blockSize;

    /// <summary>Blocks kept for reuse now.</summary>
    internal int Retained => Volatile.Read(ref _freeCount);

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, _blockSize);
        if (_free.TryDequeue(out var block))
        {
            Interlocked.Decrement(ref _freeCount);
            block.Rented();
            return block;
        }

        return new Block(this, GC.AllocateUninitializedArray<byte>(_blockSize, pinned: true));
    }

    /// <summary>
    /// Lets the kept blocks go. The pool stays usable: one pool serves every Kestrel listener of the app (see
    /// <see cref="LargeBlockMemoryPoolFactory"/>), and one listener stopping must not break the others.
    /// </summary>
    protected override void Dispose(bool disposing)
    {
        while (_free.TryDequeue(out _))
        {
            Interlocked.Decrement(ref _freeCount);
        }
    }

    private void Return(Block block)
    {
        if (Interlocked.Increment(ref _freeCount) > _retained)
        {
            Interlocked.Decrement(ref _freeCount);
            return; // the GC takes it
        }

        _free.Enqueue(block);
    }

    private sealed class Block(LargeBlockMemoryPool pool, byte[] array) : IMemoryOwner<byte>
    {
        private int _returned;

        public Memory<byte> Memory => array;

        public void Rented() => Volatile.Write(ref _returned, 0);

        public void Dispose()
        {
            // Once only: a second Dispose must not put the block in the pool twice.
            if (Interlocked.Exchange(ref _returned, 1) == 0)
            {
                pool.Return(this);
            }
        }
    }
}

/// <summary>
/// Gives Kestrel's transports one <see cref="LargeBlockMemoryPool"/> (Kestrel asks for a pool per I/O queue and
/// listener; sharing one keeps the blocks retained for reuse within one bound for the whole app).
/// </summary>
internal sealed class LargeBlockMemoryPoolFactory(int blockSize, int retainedBlocks) : IMemoryPoolFactory<byte>
{
    public LargeBlockMemoryPool Pool { get; } = new(blockSize, retainedBlocks);

    public MemoryPool<byte> Create(MemoryPoolOptions? options = null) => Pool;
}
