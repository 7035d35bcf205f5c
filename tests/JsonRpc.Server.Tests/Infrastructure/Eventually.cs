namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>Bounded polling for conditions the server reaches on its own time.</summary>
public static class Eventually
{
    public static async Task TrueAsync(Func<bool> condition, string because, TimeSpan? timeout = null)
    {
        var deadline = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(15));
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                Assert.Fail($"Timed out waiting until {because}.");
            }

            await Task.Delay(10);
        }
    }
}
