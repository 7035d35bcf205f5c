namespace JsonRpc.Client.Tests.Infrastructure;

public static class Timeouts
{
    public static readonly TimeSpan Test = TimeSpan.FromSeconds(10);

    public static Task<T> Bounded<T>(this ValueTask<T> task) => task.AsTask().WaitAsync(Test);

    public static Task Bounded(this ValueTask task) => task.AsTask().WaitAsync(Test);

    public static Task<T> Bounded<T>(this Task<T> task) => task.WaitAsync(Test);

    public static Task Bounded(this Task task) => task.WaitAsync(Test);

    /// <summary>Polls <paramref name="condition"/> until it holds, for at most the test timeout (see <see cref="Eventually"/>).</summary>
    public static Task Until(Func<bool> condition, string what) => Eventually.TrueAsync(condition, what, Test);
}
