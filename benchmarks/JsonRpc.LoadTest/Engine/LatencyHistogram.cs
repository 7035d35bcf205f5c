using System.Numerics;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A log-linear latency histogram in the manner of HdrHistogram: values (nanoseconds) below 1024 have a bucket each;
/// above, every power of two is split into 512 equal buckets, so a bucket is never wider than 1/512 (0.2%) of the
/// values in it. Recording is one shift and one increment, with no allocation; one instance per connection (single
/// writer), merged at the end. A percentile is the upper edge of the bucket holding the ceil(q x count)-th smallest
/// value, so it is never under-reported and over-reported by at most 0.2%; the maximum and the
/// mean are exact.
/// </summary>
public sealed class LatencyHistogram
{
    private const int LinearBits = 10;             // values below 2^10 are exact
    private const int SubBuckets = 1 << (LinearBits - 1);
    private const int MaxShift = 40 - LinearBits;  // up to 2^40 ns (18 minutes); larger values are clamped
    private const int BucketCount = (1 << LinearBits) + (MaxShift * SubBuckets);

    private readonly long[] _counts = new long[BucketCount];

    /// <summary>Values recorded.</summary>
    public long Count { get; private set; }

    /// <summary>The largest value recorded, exactly.</summary>
    public long Max { get; private set; }

    /// <summary>The sum of the values, for the exact mean.</summary>
    public double Sum { get; private set; }

    /// <summary>Records one latency in nanoseconds (negative values count as 0).</summary>
    public void Record(long nanoseconds)
    {
        var value = Math.Max(0, nanoseconds);
        _counts[Index(value)]++;
        Count++;
        Sum += value;
        if (value > Max)
        {
            Max = value;
        }
    }

    /// <summary>Adds every value of <paramref name="other"/> to this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        for (var i = 0; i < BucketCount; i++)
        {
            _counts[i] += other._counts[i];
        }

        Count += other.Count;
        Sum += other.Sum;
        Max = Math.Max(Max, other.Max);
    }

    /// <summary>The value at quantile <paramref name="q"/> (0..1] in nanoseconds; 0 when empty.</summary>
    public long Percentile(double q)
    {
        if (Count == 0)
        {
            return 0;
        }

        var rank = Math.Max(1, (long)Math.Ceiling(q * Count));
        long seen = 0;
        for (var i = 0; i < BucketCount; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                return Math.Min(UpperEdge(i), Max);
            }
        }

        return Max;
    }

    /// <summary>The exact mean in nanoseconds; 0 when empty.</summary>
    public double Mean => Count == 0 ? 0 : Sum / Count;

    internal static int Index(long value)
    {
        if (value < 1 << LinearBits)
        {
            return (int)value;
        }

        // The top LinearBits - 1 bits after the leading one pick the sub-bucket; the leading one's position the range.
        var shift = (63 - BitOperations.LeadingZeroCount((ulong)value)) - (LinearBits - 1);
        if (shift > MaxShift)
        {
            return BucketCount - 1;
        }

        var top = (int)(value >> shift); // in [2^(LinearBits-1), 2^LinearBits)
        return (1 << LinearBits) + ((shift - 1) * SubBuckets) + (top - SubBuckets);
    }

    internal static long UpperEdge(int index)
    {
        if (index < 1 << LinearBits)
        {
            return index;
        }

        var shift = ((index - (1 << LinearBits)) / SubBuckets) + 1;
        var top = ((index - (1 << LinearBits)) % SubBuckets) + SubBuckets;
        return ((long)(top + 1) << shift) - 1;
    }
}
