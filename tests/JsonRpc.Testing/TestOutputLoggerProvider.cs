using Microsoft.Extensions.Logging;

namespace JsonRpc.Testing;

/// <summary>Sends the router's logs to the test's output.</summary>
public sealed class TestOutputLoggerProvider(ITestOutputHelper output) : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) => new Logger(output, categoryName);

    public void Dispose()
    {
    }

    private sealed class Logger(ITestOutputHelper output, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Debug;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            try
            {
                output.WriteLine($"{DateTime.UtcNow:HH:mm:ss.fff} {logLevel} {category}: {formatter(state, exception)}{(exception is null ? "" : " " + exception)}");
            }
            catch (InvalidOperationException)
            {
                // The test has finished; its output is closed.
            }
        }
    }
}
