using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The table of addresses whose connections were closed for misbehaviour: how long each address's next connection
/// waits, how the wait grows and is forgotten, and that the table stays bounded. Times are given, not read from a clock.
/// </summary>
public sealed class AddressPenaltiesTests
{
    [Theory]
    [InlineData("10.0.0.7:5123", "10.0.0.7")]
    [InlineData("[::1]:5123", "::1")]
    [InlineData("[fe80::1%2]:80", "fe80::1%2")]
    [InlineData("fe80::1", "fe80::1")] // IPv6 without a port: taken whole
    [InlineData("/run/router.sock", "/run/router.sock")]
    [InlineData(null, null)]
    [InlineData("", null)]
    public void AddressOf_DropsThePortOnly(string? endPoint, string? expected)
        => Assert.Equal(expected, AddressPenalties.AddressOf(endPoint));

    [Fact]
    public void Strikes_DoubleTheWait_UpToTheMaximum_OtherAddressesAndPortsAlike()
    {
        var penalties = new AddressPenalties(TimeSpan.FromMilliseconds(700));
        Assert.Equal(TimeSpan.Zero, penalties.DelayFor("10.0.0.7:1", 0));
        var expected = new[] { 50, 100, 200, 400, 700, 700 };
        for (var strike = 0; strike < expected.Length; strike++)
        {
            penalties.Strike($"10.0.0.7:{1000 + strike}", strike * 100); // a new port each time: the address counts
            Assert.Equal(TimeSpan.FromMilliseconds(expected[strike]), penalties.DelayFor("10.0.0.7:9999", strike * 100));
        }

        Assert.Equal(TimeSpan.Zero, penalties.DelayFor("10.0.0.8:1", 600));
        Assert.Equal(TimeSpan.Zero, penalties.DelayFor(null, 600));
    }

    [Fact]
    public void Address_ForgottenThirtySecondsAfterItsLastStrike_ThenStartsOver()
    {
        var penalties = new AddressPenalties(TimeSpan.FromSeconds(1));
        penalties.Strike("10.0.0.7:1", 1_000);
        penalties.Strike("10.0.0.7:1", 20_000);
        Assert.Equal(TimeSpan.FromMilliseconds(100), penalties.DelayFor("10.0.0.7:2", 49_999));
        Assert.Equal(TimeSpan.Zero, penalties.DelayFor("10.0.0.7:2", 50_000));
        Assert.Equal(0, penalties.Count);
        penalties.Strike("10.0.0.7:1", 60_000);
        Assert.Equal(TimeSpan.FromMilliseconds(50), penalties.DelayFor("10.0.0.7:2", 60_001));
    }

    [Fact]
    public void ZeroMaximum_NothingRememberedOrDelayed()
    {
        var penalties = new AddressPenalties(TimeSpan.Zero);
        penalties.Strike("10.0.0.7:1", 0);
        Assert.Equal(TimeSpan.Zero, penalties.DelayFor("10.0.0.7:1", 1));
        Assert.Equal(0, penalties.Count);
    }

    [Fact]
    public void Table_Bounded_ExpiredAddressesMakeRoom()
    {
        var penalties = new AddressPenalties(TimeSpan.FromSeconds(1));
        for (var i = 0; i < AddressPenalties.MaxAddresses + 100; i++)
        {
            penalties.Strike($"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}:1", 0);
        }

        Assert.Equal(AddressPenalties.MaxAddresses, penalties.Count);
        Assert.Equal(TimeSpan.Zero, penalties.DelayFor($"10.0.{(AddressPenalties.MaxAddresses + 50) >> 8 & 255}.{(AddressPenalties.MaxAddresses + 50) & 255}:1", 1));

        // Thirty seconds on, the old ones make room for a new address.
        penalties.Strike("192.168.1.1:1", 30_000);
        Assert.Equal(1, penalties.Count);
        Assert.Equal(TimeSpan.FromMilliseconds(50), penalties.DelayFor("192.168.1.1:2", 30_001));
    }
}
