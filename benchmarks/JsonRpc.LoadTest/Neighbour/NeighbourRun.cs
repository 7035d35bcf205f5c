using System.Diagnostics;
using System.Globalization;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest.Neighbour;

/// <summary>
/// The noisy-neighbour case (<c>--flood-token</c>): against one router process started with a security file, an echo
/// provider and the measured callers (raw, authenticated with <c>--token</c>) run alone and then beside the flood
/// (<see cref="FloodClient"/> connections authenticated with the flood's token, whose identity has a rate quota), for
/// <see cref="LoadOptions.Rounds"/> rounds. Each phase has fresh callers, one second to settle and the measured window
/// (<see cref="LoadOptions.Duration"/>); before the first round, callers and flood run together for
/// <see cref="LoadOptions.Warmup"/>, unmeasured, so that both paths are compiled. Every measured call must be answered
/// once, correctly; every flood call once, with a result or a <c>-32015</c> refusal carrying <c>retry_after_ms</c>.
/// </summary>
public static class NeighbourRun
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);

    /// <summary>Runs the case; about warm-up + rounds × 2 × (1 s + duration) + a few seconds.</summary>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        var (target, probe) = await LoadTarget.StartProcessCaseAsync(options, "noisy-neighbour", cancellationToken).ConfigureAwait(false);
        await using var targetLifetime = target.ConfigureAwait(false);
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(90));
        await using var echo = await ClientEchoProvider.StartAsync(target.EndPoint, "echo-neighbour-case", options.PayloadBytes, setup.Token).ConfigureAwait(false);
        progress?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"noisy neighbour: router {target.ProcessCommand}; {options.Connections} measured callers x {options.EffectiveWindow} in flight, {options.PayloadBytes} B; flood {options.FloodConnections} x {options.FloodWindow} in flight; {options.Rounds} rounds of {options.Duration.TotalSeconds:0.#} s a phase"));

        var started = Stopwatch.GetTimestamp();
        var cpuStart = probe.CpuTime();
        var phases = new List<Phase>();
        if (options.Warmup > TimeSpan.Zero)
        {
            var warmup = await RunPhaseAsync(target, probe, options, flooded: true, new RunClock(TimeSpan.Zero, options.Warmup, options.Grace), cancellationToken).ConfigureAwait(false);
            phases.Add(warmup);
            progress?.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  warm-up with the flood: {warmup.Report.CallsPerSecond:N0} calls/s"));
        }

        var rounds = new List<NeighbourRoundReport>();
        for (var round = 1; round <= options.Rounds; round++)
        {
            var alone = await RunPhaseAsync(target, probe, options, flooded: false, new RunClock(Settle, options.Duration, options.Grace), cancellationToken).ConfigureAwait(false);
            var flooded = await RunPhaseAsync(target, probe, options, flooded: true, new RunClock(Settle, options.Duration, options.Grace), cancellationToken).ConfigureAwait(false);
            phases.Add(alone);
            phases.Add(flooded);
            rounds.Add(new NeighbourRoundReport
            {
                Round = round,
                Alone = alone.Report,
                Flooded = flooded.Report,
                Ratio = alone.Report.CallsPerSecond > 0 ? Math.Round(flooded.Report.CallsPerSecond / alone.Report.CallsPerSecond, 3) : 0,
            });
            progress?.WriteLine(Line(rounds[^1]));
        }

        var refusals = phases.Sum(p => p.Report.Flood?.Refusals ?? 0);
        var problem = phases.Select(p => p.Problem).FirstOrDefault(p => p is not null)
            ?? (refusals == 0 ? "the flood was never refused -32015: its identity has no rate quota here (check --security-file and --flood-token), so the case shows nothing" : null);
        var ratios = rounds.Select(r => r.Ratio).Order().ToList();
        return report with
        {
            Neighbour = new NeighbourReport
            {
                Router = target.DescribeProcess(probe, probe.CpuTime() - cpuStart, Stopwatch.GetElapsedTime(started)),
                Connections = options.Connections,
                Window = options.EffectiveWindow,
                PayloadBytes = options.PayloadBytes,
                FloodConnections = options.FloodConnections,
                FloodWindow = options.FloodWindow,
                PhaseSeconds = options.Duration.TotalSeconds,
                Rounds = rounds,
                MedianRatio = ratios.Count == 0 ? 0 : Math.Round((ratios[(ratios.Count - 1) / 2] + ratios[ratios.Count / 2]) / 2, 3),
                MeasuredCalls = phases.Sum(p => p.Calls),
                FloodCalls = phases.Sum(p => p.Report.Flood?.Calls ?? 0),
                FloodRefusals = refusals,
                Problem = problem,
            },
        };
    }

    /// <summary>One round as the progress and the printed report show it.</summary>
    internal static string Line(NeighbourRoundReport round)
    {
        ArgumentNullException.ThrowIfNull(round);
        var (alone, flooded) = (round.Alone, round.Flooded);
        var flood = flooded.Flood;
        return string.Create(CultureInfo.InvariantCulture,
            $"  round {round.Round}: alone {alone.CallsPerSecond:N0} calls/s (p50 {alone.Latency.P50Us:N0} us, p99 {alone.Latency.P99Us:N0} us, router {alone.Router?.CpuUsPerCall:N1} us/call); flooded {flooded.CallsPerSecond:N0} calls/s (p50 {flooded.Latency.P50Us:N0} us, p99 {flooded.Latency.P99Us:N0} us, router {flooded.Router?.CpuUsPerCall:N1} us/call, {flooded.RouterCpuUsPerAnswer:N1} us/answer; this process {flooded.Cpu?.ProcessPercent:N0}% of all cores): {round.Ratio:P0}; flood {flood?.RefusalsPerSecond:N0} refusals/s, {flood?.ResultsPerSecond:N0} results/s, retry_after_ms {flood?.MinRetryAfterMs}-{flood?.MaxRetryAfterMs}");
    }

    private sealed record Phase(NeighbourPhaseReport Report, long Calls, string? Problem);

    /// <summary>Fresh measured callers on <paramref name="clock"/>, beside fresh flood connections when <paramref name="flooded"/>.</summary>
    private static async Task<Phase> RunPhaseAsync(LoadTarget target, ProcessProbe probe, LoadOptions options, bool flooded, RunClock clock, CancellationToken cancellationToken)
    {
        var floods = await ConnectFloodAsync(target, options, flooded ? options.FloodConnections : 0, clock, cancellationToken).ConfigureAwait(false);
        try
        {
            using var stopSending = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            using var hardStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var flooding = floods.Select(f => f.RunAsync(stopSending.Token, hardStop.Token)).ToArray();
            var callers = CallerPhase.RunAsync(target.EndPoint, options, options.EffectiveWindow, clock, cancellationToken);
            var window = LoadRunner.SampleCpuAsync(clock, callers, probe);
            CallerPhaseResult measured;
            try
            {
                measured = await callers.ConfigureAwait(false);
            }
            finally
            {
                // The flood stops with the callers and collects the answers still due, within the grace period.
                await stopSending.CancelAsync().ConfigureAwait(false);
                hardStop.CancelAfter(options.Grace);
                await Task.WhenAll(flooding).ConfigureAwait(false);
            }

            var samples = await window.ConfigureAwait(false);
            var seconds = clock.Duration.TotalSeconds;
            var floodAnswers = floods.Sum(f => f.MeasuredAnswers);
            var cpu = (samples.ServerEnd - samples.ServerStart).TotalSeconds;
            var report = new NeighbourPhaseReport
            {
                CallsPerSecond = Math.Round(measured.CallsPerSecond, 1),
                Latency = LatencyReport.From(measured.Latency),
                Router = LoadRunner.DescribeProcess(target, samples, measured.CallsPerSecond),
                Cpu = SystemMetrics.Compare(samples.Start, samples.End),
                RouterCpuUsPerAnswer = measured.Measured + floodAnswers > 0 ? Math.Round(cpu * 1e6 / (measured.Measured + floodAnswers), 2) : null,
                Flood = flooded ? new FloodReport
                {
                    Calls = floods.Sum(f => f.Sent),
                    Results = floods.Sum(f => f.Results),
                    Refusals = floods.Sum(f => f.Refusals),
                    OtherErrors = floods.Sum(f => f.OtherErrors + f.RefusalsWithoutRetry),
                    Missing = floods.Sum(f => f.Sent - f.Answered),
                    RefusalsPerSecond = Math.Round(floods.Sum(f => f.MeasuredRefusals) / seconds, 1),
                    ResultsPerSecond = Math.Round(floods.Sum(f => f.MeasuredResults) / seconds, 1),
                    MinRetryAfterMs = floods.Any(f => f.Refusals > 0) ? floods.Where(f => f.Refusals > 0).Min(f => f.MinRetryAfterMs) : 0,
                    MaxRetryAfterMs = floods.Count == 0 ? 0 : floods.Max(f => f.MaxRetryAfterMs),
                } : null,
            };
            var problem = measured.Problem ?? floods.Select(f => f.Problem).FirstOrDefault(p => p is not null) ?? target.ProcessFailure;
            return new Phase(report, measured.Calls, problem);
        }
        finally
        {
            foreach (var flood in floods)
            {
                await flood.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    /// <summary>Connects and authenticates <paramref name="count"/> flood connections (closing those that did when one fails).</summary>
    private static async Task<List<FloodClient>> ConnectFloodAsync(LoadTarget target, LoadOptions options, int count, RunClock clock, CancellationToken cancellationToken)
    {
        var floods = new List<FloodClient>();
        try
        {
            for (var i = 0; i < count; i++)
            {
                floods.Add(await FloodClient.ConnectAsync(target.EndPoint, options.FloodToken!, new EchoPayload(options.PayloadBytes, 1000 + i), options.FloodWindow, clock, cancellationToken).ConfigureAwait(false));
            }

            return floods;
        }
        catch
        {
            foreach (var flood in floods)
            {
                await flood.DisposeAsync().ConfigureAwait(false);
            }

            throw;
        }
    }
}
