using JsonRpc.Server.Cluster;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// What the NATS client's warnings and errors look like in the router's log: one line each (the exception's message, no
/// stack), the same line at most once a minute, and the next one written saying how many were left out.
/// </summary>
public sealed class NatsLogThrottleTests
{
    [Fact]
    public void RepeatedError_OneLineWithoutStack_OncePerMinute_ThenCountsWhatWasLeftOut()
    {
        var time = new ManualTime();
        var lines = new List<(LogLevel Level, string Message, Exception? Exception)>();
        using var inner = LoggerFactory.Create(b => b.AddProvider(new ListProvider(lines)).SetMinimumLevel(LogLevel.Trace));
        var logger = new NatsLogThrottle(inner, time).CreateLogger("NATS.Client.Core.NatsConnection");
        var refused = new InvalidOperationException("wrapper", new System.Net.Sockets.SocketException(111));

        for (var i = 0; i < 20; i++)
        {
            logger.LogError(refused, "Fail to connect NATS {Url}", "nats://127.0.0.1:1");
            time.Advance(TimeSpan.FromSeconds(1));
        }

        var first = Assert.Single(lines, l => l.Level == LogLevel.Error);
        Assert.Equal(19, lines.Count(l => l.Level == LogLevel.Debug && l.Message.EndsWith("(again)", StringComparison.Ordinal)));
        lines.RemoveAll(l => l.Level == LogLevel.Debug);
        Assert.Equal(LogLevel.Error, first.Level);
        Assert.Null(first.Exception);
        Assert.StartsWith("Fail to connect NATS nats://127.0.0.1:1: ", first.Message);
        Assert.Contains(new System.Net.Sockets.SocketException(111).Message, first.Message);

        // A minute after the first: written again, with the count of those left out.
        time.Advance(TimeSpan.FromSeconds(41));
        logger.LogError(refused, "Fail to connect NATS {Url}", "nats://127.0.0.1:1");
        Assert.Equal(2, lines.Count);
        Assert.EndsWith("(19 more like it in the last minute were not logged)", lines[1].Message);

        // Another message is its own line at once; information passes through untouched.
        logger.LogWarning("Authorization Violation");
        logger.LogInformation("Connected");
        logger.LogInformation("Connected");
        Assert.Equal(["Authorization Violation", "Connected", "Connected"], lines.Skip(2).Select(l => l.Message));
    }

    private sealed class ManualTime : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }

    private sealed class ListProvider(List<(LogLevel, string, Exception?)> lines) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new ListLogger(lines);

        public void Dispose()
        {
        }

        private sealed class ListLogger(List<(LogLevel, string, Exception?)> lines) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
                => lines.Add((logLevel, formatter(state, exception), exception));
        }
    }
}
