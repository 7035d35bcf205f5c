using System.Collections.Concurrent;

namespace JsonRpc.Client.Internal;

/// <summary>
/// The safety net under <see cref="ClientConnection.HoldWrites"/>: one timer for the process, armed only while some
/// connection holds writes, that breaks any hold still in the same period a whole <see cref="Period"/> later. A
/// continuation that blocks its thread therefore delays a held call by at most about two periods, once; it never
/// deadlocks on it.
/// </summary>
internal static class HeldWriteWatch
{
    /// <summary>How long a hold may keep writes before the watch sends them.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(5);

    private static readonly ConcurrentQueue<(ClientConnection Connection, int Epoch)> Watched = new();
    private static readonly Timer Ticker = new(static _ => Tick(), null, Timeout.Infinite, Timeout.Infinite);
    private static int s_armed;

    /// <summary>Watches the hold period <paramref name="epoch"/> of <paramref name="connection"/>, which holds writes.</summary>
    public static void Watch(ClientConnection connection, int epoch)
    {
        Watched.Enqueue((connection, epoch));
        if (Interlocked.Exchange(ref s_armed, 1) == 0)
        {
            Ticker.Change(Period, Timeout.InfiniteTimeSpan);
        }
    }

    private static void Tick()
    {
        // Only what was watched before this tick: a hold watched since has not had its period yet.
        var count = Watched.Count;
        for (var i = 0; i < count && Watched.TryDequeue(out var watched); i++)
        {
            watched.Connection.BreakHold(watched.Epoch);
        }

        Volatile.Write(ref s_armed, 0);
        if (!Watched.IsEmpty && Interlocked.Exchange(ref s_armed, 1) == 0)
        {
            Ticker.Change(Period, Timeout.InfiniteTimeSpan);
        }
    }
}
