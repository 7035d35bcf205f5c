using JsonRpc.Client.Internal;

namespace JsonRpc.Client.Tests;

public sealed class PendingCallTableTests
{
    [Fact]
    public void TryClaim_CurrentId_SucceedsOnce()
    {
        var table = new PendingCallTable();
        var call = table.Rent("m", null, long.MaxValue);
        Assert.True(table.TryClaim(call.Id, out var found));
        Assert.Same(call, found);
        Assert.False(table.TryClaim(call.Id, out _));
    }

    [Fact]
    public void TryClaim_IdOfEarlierUseOfSameSlot_IsRejected()
    {
        var table = new PendingCallTable();
        var first = table.Rent("m", null, long.MaxValue);
        var staleId = first.Id;
        Assert.True(first.TryClaim(staleId));
        first.SetFailure(CallOutcome.TimedOut, null);
        table.Release(first);

        var second = table.Rent("m", null, long.MaxValue);
        Assert.Same(first, second); // the slot is reused...
        Assert.NotEqual(staleId, second.Id); // ...under a new id
        Assert.False(table.TryClaim(staleId, out _));
        Assert.True(table.TryClaim(second.Id, out _));
    }

    [Theory]
    [InlineData(0L)]
    [InlineData(-5L)]
    [InlineData(123456789L)]
    public void TryClaim_UnknownIds_AreRejected(long id)
    {
        var table = new PendingCallTable();
        _ = table.Rent("m", null, long.MaxValue);
        Assert.False(table.TryClaim(id, out _));
    }

    [Fact]
    public void Rent_MoreThanOneChunk_GivesDistinctIdsAndSlots()
    {
        var table = new PendingCallTable();
        var calls = Enumerable.Range(0, 1000).Select(_ => table.Rent("m", null, long.MaxValue)).ToList();
        Assert.Equal(1000, calls.Select(c => c.Id).Distinct().Count());
        Assert.Equal(1000, calls.Select(c => c.Slot).Distinct().Count());
        foreach (var call in calls)
        {
            Assert.True(table.TryClaim(call.Id, out var found));
            Assert.Same(call, found);
        }
    }

    [Fact]
    public void ClaimAll_ClaimsOnlyThatConnectionsCalls()
    {
        var table = new PendingCallTable();
        var a = new object();
        var b = new object();
        var onA = Enumerable.Range(0, 5).Select(_ => table.Rent("m", a, long.MaxValue)).ToList();
        var onB = table.Rent("m", b, long.MaxValue);
        var claimed = new List<PendingCall>();
        Assert.Equal(5, table.ClaimAll(a, static (call, list) => list.Add(call), claimed));
        Assert.Equal(onA.OrderBy(c => c.Slot), claimed.OrderBy(c => c.Slot));
        Assert.True(table.TryClaim(onB.Id, out _));
    }

    [Fact]
    public void ClaimExpired_ClaimsOnlyPastDeadlines()
    {
        var table = new PendingCallTable();
        var expired = table.Rent("m", null, 100);
        var alive = table.Rent("m", null, 1000);
        var claimed = new List<PendingCall>();
        table.ClaimExpired(500, static (call, list) => list.Add(call), claimed);
        Assert.Equal([expired], claimed);
        Assert.True(table.TryClaim(alive.Id, out _));
    }

    [Fact]
    public async Task RentClaimRelease_ManyThreads_NoSlotIsHandedOutTwice()
    {
        var table = new PendingCallTable();
        var inUse = new int[PendingCallTable.MaxSlots];
        var failures = 0;
        var workers = Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 20_000; i++)
            {
                var call = table.Rent("m", null, long.MaxValue);
                if (Interlocked.Exchange(ref inUse[call.Slot], 1) != 0)
                {
                    Interlocked.Increment(ref failures);
                }

                if (!table.TryClaim(call.Id, out var found) || !ReferenceEquals(found, call))
                {
                    Interlocked.Increment(ref failures);
                }

                // The completion is queued to the pool; its owner awaits it before releasing the slot, as callers do.
                found!.SetResult("1"u8, null);
                found.AsValueTask().AsTask().GetAwaiter().GetResult();
                Volatile.Write(ref inUse[call.Slot], 0);
                table.Release(call);
            }
        }));
        await Task.WhenAll(workers).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(0, failures);
    }
}
