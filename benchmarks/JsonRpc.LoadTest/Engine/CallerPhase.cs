using System.Net;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// One phase of fresh raw callers against a router, on a clock of its own (the hostile and noisy-neighbour cases run
/// the same callers alone and beside something else): connect, call until the clock's measured window ends, collect the
/// last answers. Every call must be answered once, with its own payload and no error.
/// </summary>
internal static class CallerPhase
{
    /// <summary>Runs <see cref="LoadOptions.Connections"/> raw callers with <paramref name="window"/> calls in flight each.</summary>
    public static async Task<CallerPhaseResult> RunAsync(EndPoint endPoint, LoadOptions options, int window, RunClock clock, CancellationToken cancellationToken)
    {
        var callers = new List<ICaller>();
        try
        {
            for (var i = 0; i < options.Connections; i++)
            {
                var connect = await RawCaller.ConnectAsync(endPoint, new EchoPayload(options.PayloadBytes, i), window, cancellationToken).ConfigureAwait(false);
                callers.Add(connect(clock));
            }

            using var hardStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            hardStop.CancelAfter(clock.UntilHardStop);
            await Task.WhenAll(callers.Select(c => c.RunAsync(hardStop.Token))).ConfigureAwait(false);
            var ledgers = callers.SelectMany(c => c.Ledgers).ToList();
            var latency = new LatencyHistogram();
            foreach (var ledger in ledgers)
            {
                latency.Add(ledger.Latency);
            }

            var measured = ledgers.Sum(l => l.Measured);
            var problem = ledgers.Select(Check).FirstOrDefault(p => p is not null);
            return new CallerPhaseResult(measured / clock.Duration.TotalSeconds, measured, ledgers.Sum(l => l.Sent), latency, problem);
        }
        finally
        {
            foreach (var caller in callers)
            {
                await caller.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private static string? Check(CallLedger ledger) =>
        ledger.Failure ?? ledger.FirstProblem
        ?? (ledger.Sent == 0 ? "a caller made no call"
            : ledger.Answered != ledger.Sent ? $"a caller got {ledger.Answered} answers to {ledger.Sent} calls"
            : ledger.Errors > 0 ? $"a caller got {ledger.Errors} errors"
            : null);
}

/// <summary>What one <see cref="CallerPhase"/> measured.</summary>
/// <param name="CallsPerSecond">Answers inside the measured window over its length.</param>
/// <param name="Measured">Answers inside the measured window.</param>
/// <param name="Calls">Calls sent over the whole phase, warm-up included.</param>
/// <param name="Latency">The latencies of the answers inside the measured window.</param>
/// <param name="Problem">The first thing that went wrong, or null when every call was answered once, correctly.</param>
internal sealed record CallerPhaseResult(double CallsPerSecond, long Measured, long Calls, LatencyHistogram Latency, string? Problem);
