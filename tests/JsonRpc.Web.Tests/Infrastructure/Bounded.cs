namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>Every wait in these tests is bounded; conditions the router reaches on its own time are polled.</summary>
public static class Bounded
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(15);

    public static Task<T> Within<T>(this Task<T> task) => task.WaitAsync(Timeout);

    public static Task Within(this Task task) => task.WaitAsync(Timeout);

    public static Task<T> Within<T>(this ValueTask<T> task) => task.AsTask().WaitAsync(Timeout);

    public static Task Within(this ValueTask task) => task.AsTask().WaitAsync(Timeout);

    public static async Task UntilAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow + Timeout;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                Assert.Fail("Timed out waiting until " + what + ".");
            }

            await Task.Delay(10);
        }
    }
}
