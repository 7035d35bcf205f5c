using System.Diagnostics;

namespace JsonRpc.Testing;

/// <summary>
/// Bounded polling for a condition that the code under test reaches on its own time (a state change, a counter, a log
/// line): the way to wait without a fixed sleep. The bound is generous (15 s by default) because the machine may be
/// loaded; a condition that holds returns at the next poll, so passing tests stay fast.
/// </summary>
public static class Eventually
{
    /// <summary>How long <see cref="TrueAsync(Func{bool}, string, TimeSpan?)"/> waits unless told otherwise.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(15);

    private static readonly TimeSpan FirstPoll = TimeSpan.FromMilliseconds(5);
    private static readonly TimeSpan LongestPoll = TimeSpan.FromMilliseconds(100);

    /// <summary>Polls <paramref name="condition"/> until it holds.</summary>
    /// <param name="condition">Checked at once, then at growing intervals of 5 ms up to 100 ms.</param>
    /// <param name="because">What is awaited, for the failure message ("the client reconnected").</param>
    /// <param name="timeout">The bound; <see cref="DefaultTimeout"/> when null.</param>
    /// <exception cref="TimeoutException">The condition did not hold within the bound.</exception>
    public static Task TrueAsync(Func<bool> condition, string because, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(condition);
        return TrueAsync(() => new ValueTask<bool>(condition()), because, timeout);
    }

    /// <summary>Polls an asynchronous <paramref name="condition"/> (e.g. a call to the router) until it holds.</summary>
    /// <exception cref="TimeoutException">The condition did not hold within the bound.</exception>
    public static async Task TrueAsync(Func<ValueTask<bool>> condition, string because, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(condition);
        var bound = timeout ?? DefaultTimeout;
        var elapsed = Stopwatch.StartNew();
        var poll = FirstPoll;
        while (!await condition())
        {
            if (elapsed.Elapsed > bound)
            {
                throw new TimeoutException($"Timed out after {bound.TotalSeconds:0.#} s waiting until {because}.");
            }

            await Task.Delay(poll);
            poll = TimeSpan.FromTicks(Math.Min(poll.Ticks * 2, LongestPoll.Ticks));
        }
    }
}
