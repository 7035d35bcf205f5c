namespace JsonRpc.Server.Routing;

/// <summary>
/// The router's memory budget (<see cref="JsonRpcRouterOptions.MaxMemory"/>): the bytes of buffer it holds for all
/// connections together (outbound queues and batch replies). Past <see cref="RefuseAbove"/> (90% of it) new calls and
/// batches are refused with <see cref="RouterErrorCodes.Overloaded"/>, so that no mix of clients can take the process
/// to its memory limit; what is already held still drains.
/// </summary>
internal sealed class MemoryBudget(long max)
{
    private long _held;

    public long Max { get; } = max;

    public long RefuseAbove { get; } = max / 10 * 9;

    public long Held => Volatile.Read(ref _held);

    public bool IsNearLimit => Volatile.Read(ref _held) > RefuseAbove;

    public void Add(long bytes) => Interlocked.Add(ref _held, bytes);

    /// <summary>The default budget: a quarter of the memory the GC may use (the machine's, or the container's limit).</summary>
    public static long DefaultMax()
    {
        var available = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        return Math.Max(64L * 1024 * 1024, available / 4);
    }
}
