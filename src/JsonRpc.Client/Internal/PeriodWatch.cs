using System.Collections.Concurrent;

namespace JsonRpc.Client.Internal;

/// <summary>Something <see cref="PeriodWatch"/> looks at once a period while it asks to be watched.</summary>
internal interface IPeriodWatched
{
    /// <summary>
    /// A whole period has passed since <paramref name="epoch"/> was watched (or last looked at). Returns whether to be
    /// looked at again a period later, with <paramref name="seen"/> (-1 on the first look) as it should be then.
    /// </summary>
    bool OnPeriodElapsed(int epoch, ref int seen);
}

/// <summary>
/// The safety net under what a connection lets wait on a running continuation (writes held while answers are handed
/// out, the rest of a read's work queued behind one that runs long): one timer for the process, armed only while
/// something is watched, that looks at each watched thing a whole <see cref="Period"/> later. A continuation that
/// blocks its thread therefore delays others by at most about two periods, once; it never deadlocks on them.
/// </summary>
internal static class PeriodWatch
{
    /// <summary>How long a continuation may hold others up before the watch lets them go.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(5);

    private static readonly ConcurrentQueue<(IPeriodWatched Target, int Epoch, int Seen)> Watched = new();
    private static readonly Timer Ticker = new(static _ => Tick(), null, Timeout.Infinite, Timeout.Infinite);
    private static int s_armed;

    /// <summary>Looks at <paramref name="target"/> about a period from now, naming <paramref name="epoch"/>.</summary>
    public static void Watch(IPeriodWatched target, int epoch) => Enqueue(target, epoch, -1);

    private static void Enqueue(IPeriodWatched target, int epoch, int seen)
    {
        Watched.Enqueue((target, epoch, seen));
        if (Interlocked.Exchange(ref s_armed, 1) == 0)
        {
            Ticker.Change(Period, Timeout.InfiniteTimeSpan);
        }
    }

    private static void Tick()
    {
        // Only what was watched before this tick: what is watched since has not had its period yet.
        var count = Watched.Count;
        for (var i = 0; i < count && Watched.TryDequeue(out var watched); i++)
        {
            var seen = watched.Seen;
            if (watched.Target.OnPeriodElapsed(watched.Epoch, ref seen))
            {
                Watched.Enqueue((watched.Target, watched.Epoch, seen));
            }
        }

        // A full fence between disarming and looking again: a plain store could pass the emptiness check, and something
        // watched in between would then find the timer armed and wait for a tick that never comes.
        Interlocked.Exchange(ref s_armed, 0);
        if (!Watched.IsEmpty && Interlocked.Exchange(ref s_armed, 1) == 0)
        {
            Ticker.Change(Period, Timeout.InfiniteTimeSpan);
        }
    }
}
