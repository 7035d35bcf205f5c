namespace JsonRpc.Client.Tests;

public sealed class OptionsTests
{
    [Fact]
    public void ReconnectGetDelay_GrowsByMultiplierUpToMaxDelay()
    {
        var options = new JsonRpcReconnectOptions { InitialDelay = TimeSpan.FromMilliseconds(100), MaxDelay = TimeSpan.FromSeconds(1), Multiplier = 2, Jitter = 0 };
        Assert.Equal(TimeSpan.FromMilliseconds(100), options.GetDelay(0));
        Assert.Equal(TimeSpan.FromMilliseconds(200), options.GetDelay(1));
        Assert.Equal(TimeSpan.FromMilliseconds(800), options.GetDelay(3));
        Assert.Equal(TimeSpan.FromSeconds(1), options.GetDelay(4));
        Assert.Equal(TimeSpan.FromSeconds(1), options.GetDelay(10_000));
    }

    [Fact]
    public void ReconnectGetDelay_JitterStaysWithinItsFraction()
    {
        var options = new JsonRpcReconnectOptions { InitialDelay = TimeSpan.FromSeconds(1), MaxDelay = TimeSpan.FromSeconds(1), Jitter = 0.2 };
        for (var i = 0; i < 200; i++)
        {
            Assert.InRange(options.GetDelay(0), TimeSpan.FromMilliseconds(800), TimeSpan.FromSeconds(1));
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public async Task ConnectAsync_InvalidCallTimeout_ThrowsBeforeConnecting(int seconds)
    {
        var options = new JsonRpcClientOptions { CallTimeout = TimeSpan.FromSeconds(seconds) };
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", 1, options));
    }

    [Fact]
    public async Task ConnectAsync_InvalidReconnectJitter_Throws()
    {
        var options = new JsonRpcClientOptions { Reconnect = { Jitter = 1.5 } };
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", 1, options));
    }

    [Fact]
    public async Task ConnectAsync_NoRoomForIncomingCalls_Throws()
    {
        var options = new JsonRpcClientOptions { MaxConcurrentIncomingCalls = 0 };
        var error = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", 1, options));
        Assert.Equal(nameof(JsonRpcClientOptions.MaxConcurrentIncomingCalls), error.ParamName);
    }

    [Fact]
    public async Task ConnectAsync_InvalidHostOrPort_Throws()
    {
        await Assert.ThrowsAsync<ArgumentException>(() => JsonRpcClient.ConnectAsync("", 1));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => JsonRpcClient.ConnectAsync("127.0.0.1", 70000));
    }
}
