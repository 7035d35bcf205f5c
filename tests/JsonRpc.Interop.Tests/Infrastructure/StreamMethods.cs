using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>
/// The streaming methods of these tests on a StreamJsonRpc provider, with what they saw: <c>report(count, progress)</c>
/// reports <c>count*1000+1 … count*1000+count</c> then returns count; <c>range(count)</c> and <c>rangePrefetch(count)</c> return
/// 0 … count-1 as an async enumerable (the second with StreamJsonRpc's prefetch); <c>sum(values)</c> consumes the
/// caller's enumerable; <c>endless()</c> yields until disposed, which it reports.
/// </summary>
public sealed class StreamMethods
{
    public const int Prefetch = 20;

    private readonly TaskCompletionSource _endlessStarted = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _endlessDisposed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _endlessYielded;
    private int _reportsDone;

    /// <summary>Put before every method name (so that two providers can serve the same methods under two names).</summary>
    public string Prefix { get; init; } = "";

    /// <summary>Added to every value <c>range</c> yields (tells generators apart).</summary>
    public int RangeBase { get; init; }

    /// <summary>Completes once <c>endless</c> has yielded its first value.</summary>
    public Task EndlessStarted => _endlessStarted.Task;

    /// <summary>Completes when <c>endless</c>'s enumerator is disposed (its <c>finally</c> ran).</summary>
    public Task EndlessDisposed => _endlessDisposed.Task;

    /// <summary>How many values <c>endless</c> produced.</summary>
    public int EndlessYielded => Volatile.Read(ref _endlessYielded);

    /// <summary>How many <c>report</c> calls have made all their reports.</summary>
    public int ReportsDone => Volatile.Read(ref _reportsDone);

    /// <summary>Holds <c>report</c> after its reports, until released (to keep two calls in flight at once).</summary>
    public TaskCompletionSource? HoldReport { get; set; }

    public string[] Names => [Prefix + "report", Prefix + "range", Prefix + "rangePrefetch", Prefix + "sum", Prefix + "endless"];

    public void Serve(StreamJsonRpc.JsonRpc rpc)
    {
        rpc.AddLocalRpcMethod(Prefix + "report", new Func<int, IProgress<int>, Task<int>>(ReportAsync));
        rpc.AddLocalRpcMethod(Prefix + "range", new Func<int, IAsyncEnumerable<int>>(count => RangeAsync(count, RangeBase)));
        rpc.AddLocalRpcMethod(Prefix + "rangePrefetch", new Func<int, CancellationToken, ValueTask<IAsyncEnumerable<int>>>(
            (count, ct) => RangeAsync(count, RangeBase).WithPrefetchAsync(Prefetch, ct)));
        rpc.AddLocalRpcMethod(Prefix + "sum", new Func<IAsyncEnumerable<int>, CancellationToken, Task<long>>(SumAsync));
        rpc.AddLocalRpcMethod(Prefix + "endless", new Func<IAsyncEnumerable<int>>(() => EndlessAsync()));
    }

    /// <summary>Reports <c>count * 1000 + 1</c> … <c>count * 1000 + count</c> (so that calls with different counts tell their reports apart).</summary>
    private async Task<int> ReportAsync(int count, IProgress<int> progress)
    {
        for (var i = 1; i <= count; i++)
        {
            progress.Report(count * 1000 + i);
        }

        Interlocked.Increment(ref _reportsDone);

        if (HoldReport is { } hold)
        {
            await hold.Task.WaitAsync(Bounds.Step);
        }

        return count;
    }

    public static async IAsyncEnumerable<int> RangeAsync(int count, int first = 0, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        for (var i = 0; i < count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return first + i;
        }

        await Task.CompletedTask;
    }

    private static async Task<long> SumAsync(IAsyncEnumerable<int> values, CancellationToken cancellationToken)
    {
        long sum = 0;
        await foreach (var value in values.WithCancellation(cancellationToken))
        {
            sum += value;
        }

        return sum;
    }

    private async IAsyncEnumerable<int> EndlessAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        try
        {
            for (var i = 0; ; i++)
            {
                Interlocked.Increment(ref _endlessYielded);
                yield return i;
                _endlessStarted.TrySetResult();
                await Task.Yield();
            }
        }
        finally
        {
            _endlessDisposed.TrySetResult();
        }
    }
}

/// <summary>
/// An <see cref="IProgress{T}"/> that records each report as StreamJsonRpc delivers it (not through a
/// synchronization context, as <see cref="Progress{T}"/> would, which could reorder them).
/// </summary>
public sealed class ProgressRecorder : IProgress<int>
{
    private readonly ConcurrentQueue<int> _values = new();

    public int[] Values => [.. _values];

    public void Report(int value) => _values.Enqueue(value);
}
