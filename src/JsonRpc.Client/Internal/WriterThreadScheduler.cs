using System.IO.Pipelines;

namespace JsonRpc.Client.Internal;

/// <summary>
/// The outgoing pipe's reader scheduler: the send pump, woken by a flush, goes on on the thread that flushed, once that
/// thread has left the connection's write lock (<see cref="Collect"/> / <see cref="RunCollected"/>), rather than on
/// another pool thread. A caller that writes a call then makes the send itself (it completes at once unless the socket's
/// buffer is full, when the pump waits for it as before), and a batch of answers' callers sends their calls once, on
/// the batch's thread: no pool thread woken per flush. Anything scheduled outside a collecting section, or a second
/// continuation in one, goes to the pool.
/// </summary>
internal sealed class WriterThreadScheduler : PipeScheduler
{
    public static readonly WriterThreadScheduler Instance = new();

    [ThreadStatic]
    private static bool t_collecting;

    [ThreadStatic]
    private static Action<object?>? t_action;

    [ThreadStatic]
    private static object? t_state;

    [ThreadStatic]
    private static bool t_running;

    private WriterThreadScheduler()
    {
    }

    /// <summary>From here to <see cref="RunCollected"/>, a continuation scheduled on this thread is kept for it.</summary>
    public static void Collect() => t_collecting = true;

    /// <summary>
    /// Whether the current thread is running a kept continuation (the pump on a writer's thread): the pump then sends
    /// once and leaves the rest to the pool, so a writer's thread is never kept for others' sends or a close.
    /// </summary>
    public static bool IsRunningCollected => t_running;

    /// <summary>Runs the continuation kept since <see cref="Collect"/>, if any (call it with no lock held).</summary>
    public static void RunCollected()
    {
        t_collecting = false;
        if (t_action is { } action)
        {
            var state = t_state;
            t_action = null;
            t_state = null;
            t_running = true;
            try
            {
                action(state);
            }
            finally
            {
                t_running = false;
            }
        }
    }

    public override void Schedule(Action<object?> action, object? state)
    {
        if (t_collecting && t_action is null)
        {
            t_action = action;
            t_state = state;
            return;
        }

        System.Threading.ThreadPool.UnsafeQueueUserWorkItem(action, state, preferLocal: false);
    }
}
