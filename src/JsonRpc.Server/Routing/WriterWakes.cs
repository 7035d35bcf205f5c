namespace JsonRpc.Server.Routing;

/// <summary>
/// The writer wake-ups a read loop holds while it handles what one read brought: every connection a call, answer or
/// event was queued for during the read is woken once, on the read loop's own thread, after the last message of the
/// read was handled (see <see cref="OutboundQueue"/>). A read of 30 calls for one provider thus becomes one flush to it
/// instead of up to 30 wake-ups of its writer on the thread pool. Per thread; a read loop never awaits between
/// <see cref="Begin"/> and <see cref="End"/>.
/// <para>
/// Read loops hold wake-ups only where the process runs socket completions inline (<see cref="InProcess"/>): there a
/// writer woken on the pool would take every routed message off the socket thread, which is what inline handling is
/// for. Elsewhere three alternated rounds on a 2-core VM showed no gain from it (benchmarks/results/syscalls), so the
/// router keeps its writers on the pool as before.
/// </para>
/// </summary>
internal static class WriterWakes
{
    /// <summary>
    /// Whether this process runs socket completions on the epoll threads (.NET's
    /// <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c>, which the standalone router's <c>inline_io</c> sets before
    /// its first socket), read once.
    /// </summary>
    public static bool InProcess { get; } = Environment.GetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS") == "1";

    [ThreadStatic]
    private static List<OutboundQueue>? t_held;

    [ThreadStatic]
    private static bool t_holding;

    /// <summary>Starts holding wake-ups on this thread; false (and nothing to end) when a read loop further up already does.</summary>
    public static bool Begin()
    {
        if (t_holding)
        {
            return false;
        }

        t_holding = true;
        return true;
    }

    /// <summary>Holds <paramref name="queue"/>'s wake-up when this thread is handling a read.</summary>
    public static bool TryDefer(OutboundQueue queue)
    {
        if (!t_holding)
        {
            return false;
        }

        (t_held ??= []).Add(queue);
        return true;
    }

    /// <summary>
    /// Wakes every writer held, in the order they were first queued for, and stops holding. A writer that runs here may
    /// lead to more wake-ups held (they are run too before this returns).
    /// </summary>
    public static void End()
    {
        var held = t_held;
        var i = 0;
        try
        {
            if (held is not null)
            {
                for (; i < held.Count; i++)
                {
                    held[i].RunDeferredWake(inline: true);
                }
            }
        }
        finally
        {
            t_holding = false;
            if (held is not null)
            {
                // Only after a failure are any left: they are woken on the pool, never left waiting.
                for (i++; i < held.Count; i++)
                {
                    held[i].RunDeferredWake(inline: false);
                }

                held.Clear();
            }
        }
    }
}
