namespace JsonRpc.Testing;

/// <summary>
/// Every single wait in the tests is bounded: <c>await task.Within()</c> gives up after <see cref="Timeout"/>, generous
/// because the machine may be loaded (only a failure waits that long). Conditions reached in their own time are polled
/// with <see cref="Eventually"/>.
/// </summary>
public static class Bounded
{
    public static readonly TimeSpan Timeout = Eventually.DefaultTimeout;

    public static Task<T> Within<T>(this Task<T> task) => task.WaitAsync(Timeout);

    public static Task Within(this Task task) => task.WaitAsync(Timeout);

    public static Task<T> Within<T>(this ValueTask<T> task) => task.AsTask().WaitAsync(Timeout);

    public static Task Within(this ValueTask task) => task.AsTask().WaitAsync(Timeout);
}
