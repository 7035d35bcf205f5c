using System.Diagnostics;
using System.Globalization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// One progress line per second while a run goes: its phase, the answers per second over the last second, the
/// totals, and what is in flight. On a terminal the line is rewritten in place (<c>\r</c>); otherwise each second is
/// a line of its own, so logs stay readable.
/// </summary>
internal sealed class ProgressReporter(TextWriter? output, bool overwrite, RunClock clock, IReadOnlyList<CallLedger> ledgers)
{
    private int _lastLength;

    public async Task RunAsync(Task done)
    {
        if (output is null)
        {
            return;
        }

        long lastAnswered = 0;
        var lastTime = Stopwatch.GetTimestamp();
        while (!done.IsCompleted)
        {
            await Task.WhenAny(done, Task.Delay(1000)).ConfigureAwait(false);
            var now = Stopwatch.GetTimestamp();
            long sent = 0, answered = 0, errors = 0;
            foreach (var ledger in ledgers)
            {
                answered += ledger.Answered;
                errors += ledger.Errors;
                sent += ledger.Sent;
            }

            var seconds = Stopwatch.GetElapsedTime(lastTime, now).TotalSeconds;
            var rate = seconds > 0 ? (answered - lastAnswered) / seconds : 0;
            Write(string.Create(CultureInfo.InvariantCulture,
                $"  [{Phase(now)}] {rate,10:N0} calls/s   answered {answered,12:N0}   in flight {Math.Max(0, sent - answered),6:N0}   errors {errors:N0}"));
            lastAnswered = answered;
            lastTime = now;
        }

        if (overwrite && _lastLength > 0)
        {
            output.WriteLine();
        }
    }

    private string Phase(long now)
    {
        var elapsed = Stopwatch.GetElapsedTime(clock.Start, now).TotalSeconds;
        if (now < clock.MeasureStart)
        {
            return string.Create(CultureInfo.InvariantCulture, $"warm-up {elapsed,5:F0}s      ");
        }

        if (now < clock.MeasureEnd)
        {
            var measured = Stopwatch.GetElapsedTime(clock.MeasureStart, now).TotalSeconds;
            return string.Create(CultureInfo.InvariantCulture, $"measure {Math.Ceiling(measured),5:F0}/{clock.Duration.TotalSeconds:F0}s");
        }

        return "draining       ";
    }

    private void Write(string line)
    {
        if (!overwrite)
        {
            output!.WriteLine(line);
            return;
        }

        output!.Write('\r' + line.PadRight(_lastLength));
        output.Flush();
        _lastLength = line.Length;
    }
}
