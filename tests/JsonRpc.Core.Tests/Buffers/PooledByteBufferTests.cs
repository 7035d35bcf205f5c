using JsonRpc.Buffers;

namespace JsonRpc.Core.Tests.Buffers;

/// <summary>The pooled storage shared (as a linked source file) by the frame writer, the router's and the client's buffers.</summary>
public class PooledByteBufferTests
{
    [Fact]
    public void Growing_KeepsEveryByteWritten_InOrder()
    {
        var buffer = default(PooledByteBuffer);
        var expected = new List<byte>();
        for (var i = 0; i < 3000; i++)
        {
            var chunk = Enumerable.Range(0, i % 7 + 1).Select(k => (byte)(i + k)).ToArray();
            buffer.Write(chunk, minimumSize: 16);
            expected.AddRange(chunk);
        }

        Assert.Equal(expected.Count, buffer.WrittenCount);
        Assert.Equal(expected.ToArray(), buffer.WrittenSpan.ToArray());
        Assert.True(buffer.Capacity >= expected.Count);
        buffer.Release();
        Assert.Equal(0, buffer.Capacity);
    }

    [Fact]
    public void FirstRent_IsAtLeastTheMinimumSize_AndFreeSpaceCoversTheHint()
    {
        var buffer = default(PooledByteBuffer);
        Assert.Equal(0, buffer.Capacity);
        Assert.True(buffer.GetSpan(0, minimumSize: 256).Length >= 256);
        Assert.True(buffer.GetMemory(5000, minimumSize: 256).Length >= 5000);
        buffer.Release();
    }

    [Fact]
    public void Advance_BeyondTheFreeSpace_OrNegative_Throws_AndWritesNothing()
    {
        var buffer = default(PooledByteBuffer);
        var free = buffer.GetSpan(10, minimumSize: 16).Length;
        Assert.Throws<ArgumentOutOfRangeException>(() => buffer.Advance(free + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => buffer.Advance(-1));
        Assert.Equal(0, buffer.WrittenCount);
        buffer.Advance(free);
        Assert.Equal(free, buffer.WrittenCount);
        Assert.Throws<ArgumentOutOfRangeException>(() => buffer.Advance(1));
        buffer.Release();
    }

    [Fact]
    public void NegativeSizeHint_Throws()
    {
        var buffer = default(PooledByteBuffer);
        Assert.Throws<ArgumentOutOfRangeException>(() => buffer.GetSpan(-1, minimumSize: 16));
    }

    [Fact]
    public void SizeHint_BeyondTheLargestArray_IsAClearOutOfMemory()
    {
        var buffer = default(PooledByteBuffer);
        buffer.Write("abc"u8, minimumSize: 16);
        var error = Assert.Throws<OutOfMemoryException>(() => buffer.GetSpan(int.MaxValue, minimumSize: 16));
        Assert.Contains("cannot grow", error.Message, StringComparison.Ordinal);
        Assert.Equal("abc"u8.ToArray(), buffer.WrittenSpan.ToArray());
        buffer.Release();
    }

    [Theory]
    [InlineData(0)]
    [InlineData(2)]
    [InlineData(5)]
    public void Insert_MovesWhatFollows(int index)
    {
        var buffer = default(PooledByteBuffer);
        buffer.Write("hello"u8, minimumSize: 5);
        var capacity = buffer.Capacity;
        for (var i = 0; i < capacity - 5; i++)
        {
            buffer.Write("!"u8, minimumSize: 5); // full, so that the insert must grow the array
        }

        var expected = buffer.WrittenSpan.ToArray().ToList();
        expected.Insert(index, (byte)'[');
        buffer.Insert(index, (byte)'[', minimumSize: 5);
        Assert.Equal(expected.ToArray(), buffer.WrittenSpan.ToArray());
        Assert.Throws<ArgumentOutOfRangeException>(() => buffer.Insert(buffer.WrittenCount + 1, 0, minimumSize: 5));
        buffer.Release();
    }

    [Fact]
    public void Detach_HandsOverTheArray_AndStartsAfresh()
    {
        var buffer = default(PooledByteBuffer);
        Assert.Empty(buffer.Detach(out var none));
        Assert.Equal(0, none);

        buffer.Write("{}"u8, minimumSize: 16);
        var array = buffer.Detach(out var written);
        Assert.Equal(2, written);
        Assert.Equal("{}"u8.ToArray(), array.AsSpan(0, written).ToArray());
        Assert.Equal(0, buffer.WrittenCount);
        Assert.Equal(0, buffer.Capacity);

        buffer.Write("x"u8, minimumSize: 16);
        Assert.Equal("{}"u8.ToArray(), array.AsSpan(0, 2).ToArray()); // the detached array is no longer written to
        buffer.Release();
    }

    [Fact]
    public void Clear_KeepsTheArray_ReleaseReturnsIt()
    {
        var buffer = default(PooledByteBuffer);
        buffer.Write("abc"u8, minimumSize: 64);
        var capacity = buffer.Capacity;
        buffer.Clear();
        Assert.Equal(0, buffer.WrittenCount);
        Assert.Equal(capacity, buffer.Capacity);
        buffer.Release();
        Assert.Equal(0, buffer.Capacity);
        Assert.Equal(0, buffer.WrittenCount);
    }
}
