namespace JsonRpc.Client;

/// <summary>
/// How a lost connection is reopened: exponential back-off from <see cref="InitialDelay"/> to <see cref="MaxDelay"/>,
/// with jitter, for at most <see cref="MaxAttempts"/> attempts in a row.
/// </summary>
public sealed class JsonRpcReconnectOptions
{
    /// <summary>Whether to reconnect at all. Default true.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>The wait before the first attempt. Default 100 ms.</summary>
    public TimeSpan InitialDelay { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>The longest wait between attempts. Default 30 s.</summary>
    public TimeSpan MaxDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The factor the wait grows by after each failed attempt. Default 2.</summary>
    public double Multiplier { get; set; } = 2;

    /// <summary>
    /// The fraction of each wait that is randomized (0 to 1), so that many clients of one router do not all retry at the
    /// same instant. Default 0.2.
    /// </summary>
    public double Jitter { get; set; } = 0.2;

    /// <summary>
    /// Whether a call made while the client is reconnecting waits for the new connection, up to its call timeout (true,
    /// the default), or fails at once with <see cref="JsonRpcConnectionLostException"/> saying that the client is
    /// reconnecting (false: for callers that would rather retry, fall back or report than wait).
    /// </summary>
    public bool WaitWhileReconnecting { get; set; } = true;

    /// <summary>Failed attempts in a row after which the client gives up (state Disconnected); null for no limit (the default).</summary>
    public int? MaxAttempts { get; set; }

    /// <summary>The wait before attempt <paramref name="attempt"/> (0-based), before jitter.</summary>
    internal TimeSpan GetDelay(int attempt)
    {
        var ms = InitialDelay.TotalMilliseconds * Math.Pow(Multiplier, Math.Min(attempt, 64));
        ms = Math.Min(ms, MaxDelay.TotalMilliseconds);
        if (Jitter > 0)
        {
            ms *= 1 - (Jitter * Random.Shared.NextDouble());
        }

        return TimeSpan.FromMilliseconds(Math.Max(ms, 0));
    }

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(InitialDelay, TimeSpan.Zero, nameof(InitialDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxDelay, InitialDelay, nameof(MaxDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(Multiplier, 1, nameof(Multiplier));
        ArgumentOutOfRangeException.ThrowIfLessThan(Jitter, 0, nameof(Jitter));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(Jitter, 1, nameof(Jitter));
        if (MaxAttempts is { } max)
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(max, 1, nameof(MaxAttempts));
        }
    }
}
