using System.Threading.RateLimiting;

namespace JsonRpc.Server.Security;

/// <summary>
/// What the router keeps per identity across all its connections and across configuration reloads: the quota in force
/// (a token bucket for the call rate, limits on calls in flight and connections) and the identity's counters.
/// </summary>
internal sealed class IdentityState(string identity) : IDisposable
{
    private Quota? _quota;

    public string Identity { get; } = identity;

    public long Calls;
    public long Refusals;
    public long RateLimited;
    public int InFlight;
    public int Connections;

    /// <summary>Puts <paramref name="quota"/> in force; the token bucket is made anew only when the rate changes.</summary>
    public void Apply(JsonRpcQuota? quota)
    {
        var current = Volatile.Read(ref _quota);
        var rate = quota?.CallsPerSecond;
        var burst = quota?.Burst;
        var limiter = current?.Limiter;
        var keep = current is not null && current.Rate == rate && current.Burst == burst;
        if (!keep)
        {
            limiter = rate is { } r ? CreateLimiter(r, burst) : null;
        }

        Volatile.Write(ref _quota, new Quota(rate, burst, limiter, quota?.MaxCallsInFlight, quota?.MaxConnections));
        if (!keep)
        {
            current?.Limiter?.Dispose();
        }
    }

    /// <summary>Counts a call against the rate; false with how long to wait when over it.</summary>
    public bool TryAcquireRate(out TimeSpan retryAfter)
    {
        retryAfter = default;
        RateLimitLease lease;
        for (var attempt = 0; ; attempt++)
        {
            if (Volatile.Read(ref _quota)?.Limiter is not { } limiter)
            {
                return true;
            }

            try
            {
                lease = limiter.AttemptAcquire(1);
                break;
            }
            catch (ObjectDisposedException) when (attempt < 8)
            {
                // A reload replaced the bucket (and disposed this one) since it was read: take from the one in force.
            }
        }

        using (lease)
        {
            if (lease.IsAcquired)
            {
                return true;
            }

            if (!lease.TryGetMetadata(MetadataName.RetryAfter, out retryAfter))
            {
                retryAfter = TimeSpan.FromSeconds(1);
            }

            return false;
        }
    }

    /// <summary>Counts a call in flight; false (and nothing counted) when the identity has its most.</summary>
    public bool TryBeginCall(out int limit)
    {
        limit = Volatile.Read(ref _quota)?.MaxCallsInFlight ?? int.MaxValue;
        if (Interlocked.Increment(ref InFlight) <= limit)
        {
            return true;
        }

        Interlocked.Decrement(ref InFlight);
        return false;
    }

    public void EndCall() => Interlocked.Decrement(ref InFlight);

    /// <summary>Counts a connection; false (and nothing counted) when the identity has its most.</summary>
    public bool TryOpenConnection(out int limit)
    {
        limit = Volatile.Read(ref _quota)?.MaxConnections ?? int.MaxValue;
        if (Interlocked.Increment(ref Connections) <= limit)
        {
            return true;
        }

        Interlocked.Decrement(ref Connections);
        return false;
    }

    public void CloseConnection() => Interlocked.Decrement(ref Connections);

    /// <summary>Counts a connection that is open already (moved here by a reload), whatever the limit.</summary>
    public void OpenConnection() => Interlocked.Increment(ref Connections);

    public void Dispose() => Volatile.Read(ref _quota)?.Limiter?.Dispose();

    private static TokenBucketRateLimiter CreateLimiter(double rate, int? burst)
    {
        // Refilled ten times a second when the rate allows whole tokens that often, else once per token.
        var (period, tokens) = rate >= 10
            ? (TimeSpan.FromMilliseconds(100), (int)Math.Max(1, Math.Round(rate / 10)))
            : (TimeSpan.FromSeconds(1 / rate), 1);
        return new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
        {
            TokenLimit = burst ?? (int)Math.Max(1, Math.Ceiling(rate)),
            TokensPerPeriod = tokens,
            ReplenishmentPeriod = period,
            QueueLimit = 0,
            AutoReplenishment = true,
        });
    }

    private sealed record Quota(double? Rate, int? Burst, TokenBucketRateLimiter? Limiter, int? MaxCallsInFlight, int? MaxConnections);
}
