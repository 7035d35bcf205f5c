using System.Diagnostics;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The phases of one run on the <see cref="Stopwatch"/> time line, fixed when the run starts: warm-up, the measured
/// window [<see cref="MeasureStart"/>, <see cref="MeasureEnd"/>), then a grace period for answers still on their way,
/// ending at <see cref="HardStop"/>. Callers send until <see cref="MeasureEnd"/>; an answer counts in the results when
/// it arrives inside the measured window.
/// </summary>
internal sealed class RunClock
{
    public RunClock(TimeSpan warmup, TimeSpan duration, TimeSpan grace)
    {
        Start = Stopwatch.GetTimestamp();
        MeasureStart = Start + Ticks(warmup);
        MeasureEnd = MeasureStart + Ticks(duration);
        HardStop = MeasureEnd + Ticks(grace);
        Duration = duration;
    }

    /// <summary>Nanoseconds per <see cref="Stopwatch"/> tick.</summary>
    public static double NanosecondsPerTick { get; } = 1e9 / Stopwatch.Frequency;

    public long Start { get; }

    public long MeasureStart { get; }

    public long MeasureEnd { get; }

    public long HardStop { get; }

    public TimeSpan Duration { get; }

    /// <summary>Time left until the hard stop, for a cancellation token that bounds the whole run.</summary>
    public TimeSpan UntilHardStop => Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), HardStop) is var left && left > TimeSpan.Zero ? left : TimeSpan.Zero;

    public bool IsSending(long now) => now < MeasureEnd;

    public bool IsMeasured(long now) => now >= MeasureStart && now < MeasureEnd;

    public static long ToNanoseconds(long ticks) => (long)(ticks * NanosecondsPerTick);

    private static long Ticks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);
}
