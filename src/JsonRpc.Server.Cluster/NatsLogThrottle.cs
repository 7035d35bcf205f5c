using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// The logger factory handed to the NATS client. While NATS is unreachable the client logs every attempt (several a
/// second) as an error with the socket exception's whole stack. Through this factory each of its warnings and errors
/// is one line (the exception's message, not its stack), and the same line again within a minute is counted instead
/// of written at its level (it goes to Debug): the next one written says how many were left out. A refused login or a TLS failure is still written
/// the first time it happens, in the client's own words; the cluster logs its own joins and losses besides.
/// </summary>
internal sealed class NatsLogThrottle(ILoggerFactory inner, TimeProvider time) : ILoggerFactory
{
    internal static readonly TimeSpan Window = TimeSpan.FromMinutes(1);

    private readonly Lock _lock = new();
    private readonly Dictionary<string, Seen> _seen = new(StringComparer.Ordinal);

    public ILogger CreateLogger(string categoryName) => new ThrottledLogger(this, inner.CreateLogger(categoryName), categoryName);

    public void AddProvider(ILoggerProvider provider) => inner.AddProvider(provider);

    public void Dispose()
    {
        // The application's factory is not ours to dispose.
    }

    /// <summary>Whether <paramref name="line"/> should be written now, and how many like it were left out since the last one written.</summary>
    private bool ShouldWrite(string line, out int suppressed)
    {
        var now = time.GetTimestamp();
        lock (_lock)
        {
            if (_seen.TryGetValue(line, out var seen) && time.GetElapsedTime(seen.WrittenAt, now) < Window)
            {
                _seen[line] = seen with { Suppressed = seen.Suppressed + 1 };
                suppressed = 0;
                return false;
            }

            suppressed = seen.Suppressed;
            if (_seen.Count >= 256)
            {
                _seen.Clear(); // bounded: a flood of distinct lines is not throttled, only kept from growing the table
            }

            _seen[line] = new Seen(now, 0);
            return true;
        }
    }

    private readonly record struct Seen(long WrittenAt, int Suppressed);

    private sealed class ThrottledLogger(NatsLogThrottle owner, ILogger inner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => inner.BeginScope(state);

        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (logLevel < LogLevel.Warning)
            {
                inner.Log(logLevel, eventId, state, exception, formatter);
                return;
            }

            if (!inner.IsEnabled(logLevel))
            {
                return;
            }

            var message = formatter(state, exception);
            if (exception is not null)
            {
                var root = exception.GetBaseException();
                message = $"{message}: {root.Message}";
            }

            if (!owner.ShouldWrite($"{category}|{eventId.Id}|{message}", out var suppressed))
            {
                // Left out at its own level, still there for whoever logs at Debug.
                if (inner.IsEnabled(LogLevel.Debug))
                {
                    inner.Log(LogLevel.Debug, eventId, $"{message} (again)", null, static (m, _) => m);
                }

                return;
            }

            if (suppressed > 0)
            {
                message = $"{message} ({suppressed} more like it in the last minute were not logged)";
            }

            inner.Log(logLevel, eventId, message, null, static (m, _) => m);
        }
    }
}
